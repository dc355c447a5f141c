import { useEffect, useState, useSyncExternalStore } from 'react';
import type { FailureModel } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { player } from '../sim/player';
import { HOP_MS } from '../sim/compilePlayback';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';

const SPEEDS = [0.1, 1, 10, 100, 1000, 10000];

function usePlayerTick(): number {
  return useSyncExternalStore(
    (l) => player.subscribe(l),
    () => Math.round(player.p) * (player.playing ? 1 : -1),
  );
}

export function fmtT(ms: number): string {
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(2)} h`;
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(2)} min`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.round(ms)} ms`;
}

export function SimBar() {
  usePlayerTick();
  const failure = useApp((s) => s.failure);
  const count = useApp((s) => s.messageCount);
  const simError = useApp((s) => s.simError);
  const design = useApp((s) => s.design);
  // the error belongs to the design it was raised for: an edit (the fix) takes it away
  useEffect(() => {
    if (useApp.getState().simError) useApp.setState({ simError: null });
  }, [design]);
  const shownError = simError;
  const simEvents = useApp((s) => s.simEvents);
  const truncated = useApp((s) => s.simTruncated);
  const [speed, setSpeed] = useState(player.speed);
  useEffect(() => player.setSpeed(speed), [speed]);
  const hasRun = !!(player.plans.sim || player.plans.live);
  const broker = player.brokerTime;
  const end = player.endP;
  const progress = player.eventProgress;
  const btn =
    'h-7 rounded px-2 text-xs whitespace-nowrap text-slate-100 bg-slate-700 hover:bg-slate-600 disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';
  return (
    <div
      data-testid="sim-bar"
      className="flex flex-wrap items-center gap-x-1.5 gap-y-1 border-b border-slate-800 bg-slate-900 px-2 py-1.5 text-xs text-slate-300"
    >
      <button
        type="button"
        data-testid="sim-run"
        className={`${btn} !bg-sky-700 hover:!bg-sky-600`}
        onClick={() => runCommand('simulate', env)}
        title="Simulate the design with this failure model and play it"
      >
        ▶ Simulate
      </button>
      {/* icon buttons with their names as aria-labels keep the bar on one row at 1280 px */}
      <button
        type="button"
        data-testid="sim-play"
        className={`${btn} w-8`}
        disabled={!hasRun}
        onClick={() => runCommand('playPause', env)}
        aria-label={player.playing ? 'Pause' : 'Play'}
        title="Play / pause (Space)"
      >
        {player.playing ? '❚❚' : '▶'}
      </button>
      <button
        type="button"
        data-testid="sim-step"
        className={`${btn} w-8`}
        disabled={!hasRun}
        onClick={() => runCommand('step', env)}
        aria-label="Step"
        title="Step to the next event (.)"
      >
        ›|
      </button>
      <button
        type="button"
        data-testid="sim-reset"
        className={`${btn} w-8`}
        disabled={!hasRun}
        onClick={() => runCommand('resetSim', env)}
        aria-label="Reset"
        title="Reset (Shift+R)"
      >
        ↺
      </button>
      {/* a story: "1×" alone read as real time, but each hop is drawn for a moment of its own; a live trace plays on the broker's clock */}
      <label
        className="flex items-center gap-1"
        title={
          broker
            ? 'Broker time: at 1× the replay takes as long as the broker took and ends with its last event; hops are drawn within the time they took.'
            : `How fast the waits (TTLs, delays) play: at 1× a 5 s wait takes 5 s. Each hop is also drawn for ${HOP_MS / 1000} s of its own, so a run plays longer than it took.`
        }
      >
        <select
          aria-label="Speed"
          data-testid="sim-speed"
          className="rounded bg-slate-800 px-1 py-0.5"
          value={speed}
          onChange={(e) => setSpeed(Number(e.target.value))}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {broker ? '' : 'waits '}
              {s >= 1000 ? `${s / 1000}k` : s}×{broker ? ' broker' : ''}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label="Playback position"
        data-testid="sim-scrub"
        min={0}
        max={Math.max(1, Math.round(end))}
        value={Math.round(player.p)}
        onChange={(e) => player.seek(Number(e.target.value))}
        className="w-12"
        disabled={!hasRun}
      />
      <Clock broker={broker} progress={progress} />
      <FailureFields failure={failure} />
      <label className="flex items-center gap-1" title="Messages to publish">
        msgs
        <input
          data-testid="sim-count"
          type="number"
          min={1}
          max={2000}
          className="w-14 rounded bg-slate-800 px-1"
          value={count}
          onChange={(e) => useApp.getState().setMessageCount(Math.max(1, Math.min(2000, Number(e.target.value))))}
        />
      </label>
      {/* on the broker clock the time and its end say where the replay is (the event count is in the clock's title) */}
      {simEvents && !broker && (
        <span
          data-testid="sim-summary"
          className="whitespace-nowrap font-mono text-slate-400"
          title="Events played so far of the run's events: zero-time hops advance this while virtual time stands still"
        >
          <span data-testid="sim-event">
            event {hasRun ? progress.done : 0}/{progress.total}
          </span>
          {truncated ? ' (truncated)' : ''}
        </span>
      )}
      {shownError && (
        <span data-testid="sim-error" role="alert" className="whitespace-pre-wrap text-red-400">
          {shownError}
        </span>
      )}
    </div>
  );
}

/** The failure model of the simulation bar and the input its kind takes (k, %, every n-th). */
function FailureFields({ failure }: { failure: FailureModel }) {
  const setF = (f: FailureModel) => useApp.getState().setFailure(f);
  return (
    <>
      <label className="flex items-center gap-1" title="Failure model (a worker's own model overrides it)">
        <select
          aria-label="Failure model"
          data-testid="sim-failure"
          className="rounded bg-slate-800 px-1 py-0.5"
          value={failure.kind}
          onChange={(e) => {
            const k = e.target.value;
            setF(
              k === 'failFirst'
                ? { kind: 'failFirst', n: 2 }
                : k === 'percent'
                  ? { kind: 'percent', percent: 30 }
                  : k === 'poison'
                    ? { kind: 'poison', every: 3 }
                    : ({ kind: k } as FailureModel),
            );
          }}
        >
          <option value="failFirst">fail first k</option>
          <option value="always">fail always</option>
          <option value="poison">poison</option>
          <option value="percent">fail %</option>
          <option value="never">never fail</option>
        </select>
      </label>
      {failure.kind === 'failFirst' && (
        <label className="flex items-center gap-1">
          k
          <input
            data-testid="sim-k"
            type="number"
            min={0}
            max={50}
            className="w-10 rounded bg-slate-800 px-1"
            value={failure.n}
            onChange={(e) => setF({ kind: 'failFirst', n: Math.max(0, Number(e.target.value)) })}
          />
        </label>
      )}
      {failure.kind === 'percent' && (
        <label className="flex items-center gap-1">
          %
          <input
            type="number"
            min={0}
            max={100}
            className="w-10 rounded bg-slate-800 px-1"
            value={failure.percent}
            onChange={(e) => setF({ kind: 'percent', percent: Number(e.target.value) })}
          />
        </label>
      )}
      {failure.kind === 'poison' && (
        <label className="flex items-center gap-1">
          every
          <input
            type="number"
            min={1}
            aria-label="Every n-th message is poison"
            className="w-10 rounded bg-slate-800 px-1"
            value={failure.every ?? 3}
            onChange={(e) => setF({ kind: 'poison', every: Math.max(1, Number(e.target.value)) })}
          />
        </label>
      )}
    </>
  );
}

/** Where the replay is: simulated time (a story), or the broker's clock and its last event (a live trace). */
function Clock({ broker, progress }: { broker: boolean; progress: { done: number; total: number } }) {
  return (
    <span
      data-testid="sim-clock"
      data-clock={broker ? 'broker' : 'story'}
      data-t={Math.round(player.virtualNow)}
      data-end={Math.round(player.virtualEnd)}
      data-events={`${progress.done}/${progress.total}`}
      className={`min-w-[4.75rem] whitespace-nowrap font-mono ${broker ? 'text-orange-300' : 'text-sky-300'}`}
      title={
        broker
          ? `The broker's clock since the trace started, and its last event (event ${progress.done} of the ${progress.total} received)`
          : `Simulated time (hops take none of it); the run ends at ${fmtT(player.virtualEnd)}`
      }
    >
      t = {fmtT(player.virtualNow)}
      {broker ? ` / ${fmtT(player.virtualEnd)}` : ''}
    </span>
  );
}
