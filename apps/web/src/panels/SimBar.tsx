import { useEffect, useState, useSyncExternalStore } from 'react';
import type { FailureModel } from '@retry-studio/topology-core';
import { useApp } from '../store/store';
import { player } from '../sim/player';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';
import { queuesOnNode, type NodeLossDraft } from '../sim/nodeLossWhatIf';

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
  const simEvents = useApp((s) => s.simEvents);
  const truncated = useApp((s) => s.simTruncated);
  const [speed, setSpeed] = useState(player.speed);
  useEffect(() => player.setSpeed(speed), [speed]);
  const hasRun = !!(player.plans.sim || player.plans.live);
  const end = player.endP;
  const progress = player.eventProgress;
  const btn =
    'h-7 rounded px-2 text-xs whitespace-nowrap text-slate-100 bg-slate-700 hover:bg-slate-600 disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';
  const setF = (f: FailureModel) => useApp.getState().setFailure(f);
  return (
    <div data-testid="sim-bar" className="flex flex-wrap items-center gap-x-1.5 gap-y-1 border-b border-slate-800 bg-slate-900 px-2 py-1.5 text-xs text-slate-300">
      <button type="button" data-testid="sim-run" className={`${btn} !bg-sky-700 hover:!bg-sky-600`} onClick={() => runCommand('simulate', env)} title="Simulate the design with this failure model and play it">
        ▶ Simulate
      </button>
      {/* icon buttons with their names as aria-labels keep the bar on one row at 1280 px */}
      <button type="button" data-testid="sim-play" className={`${btn} w-8`} disabled={!hasRun} onClick={() => runCommand('playPause', env)} aria-label={player.playing ? 'Pause' : 'Play'} title="Play / pause (Space)">
        {player.playing ? '❚❚' : '▶'}
      </button>
      <button type="button" data-testid="sim-step" className={`${btn} w-8`} disabled={!hasRun} onClick={() => runCommand('step', env)} aria-label="Step" title="Step to the next event (.)">
        ›|
      </button>
      <button type="button" data-testid="sim-reset" className={`${btn} w-8`} disabled={!hasRun} onClick={() => runCommand('resetSim', env)} aria-label="Reset" title="Reset (Shift+R)">
        ↺
      </button>
      <label className="flex items-center gap-1" title="Virtual time per real time">
        <select aria-label="Speed" data-testid="sim-speed" className="rounded bg-slate-800 px-1 py-0.5" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
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
        className="w-16"
        disabled={!hasRun}
      />
      <span data-testid="sim-clock" className="min-w-[5.5rem] whitespace-nowrap font-mono text-sky-300">
        t = {fmtT(player.virtualNow)}
      </span>
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
                    : (({ kind: k }) as FailureModel),
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
          <input data-testid="sim-k" type="number" min={0} max={50} className="w-10 rounded bg-slate-800 px-1" value={failure.n} onChange={(e) => setF({ kind: 'failFirst', n: Math.max(0, Number(e.target.value)) })} />
        </label>
      )}
      {failure.kind === 'percent' && (
        <label className="flex items-center gap-1">
          %
          <input type="number" min={0} max={100} className="w-10 rounded bg-slate-800 px-1" value={failure.percent} onChange={(e) => setF({ kind: 'percent', percent: Number(e.target.value) })} />
        </label>
      )}
      {failure.kind === 'poison' && (
        <label className="flex items-center gap-1">
          every
          <input type="number" min={1} aria-label="Every n-th message is poison" className="w-10 rounded bg-slate-800 px-1" value={failure.every ?? 3} onChange={(e) => setF({ kind: 'poison', every: Math.max(1, Number(e.target.value)) })} />
        </label>
      )}
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
      <NodeLossControl btn={btn} />
      {simEvents && (
        <span data-testid="sim-summary" className="whitespace-nowrap font-mono text-slate-400" title="Events played so far of the run's events: zero-time hops advance this while virtual time stands still">
          <span data-testid="sim-event">
            event {hasRun ? progress.done : 0}/{simEvents.length}
          </span>
          {truncated ? ' (truncated)' : ''}
        </span>
      )}
      {simError && (
        <span data-testid="sim-error" role="alert" className="whitespace-pre-wrap text-red-400">
          {simError}
        </span>
      )}
    </div>
  );
}

/** seconds in the bar, ms in the model */
const secs = (ms: number) => Math.round(ms) / 1000;

/**
 * "What if a node goes down": which node (a probed cluster's, else a name), when, for how long,
 * how long a quorum queue takes to get a new leader, and which queues are on it. Changing a field
 * runs the simulation again when one is shown.
 */
function NodeLossControl({ btn }: { btn: string }) {
  const loss = useApp((s) => s.nodeLoss);
  const nodes = useApp((s) => s.clusterNodeNames);
  const placement = useApp((s) => s.queuePlacement);
  const design = useApp((s) => s.design);
  const set = (patch: Partial<NodeLossDraft>) => {
    const s = useApp.getState();
    if (!s.nodeLoss) return;
    s.setNodeLoss({ ...s.nodeLoss, ...patch });
    if (s.simEvents) useApp.getState().runSimulation();
  };
  const field = 'w-12 rounded bg-slate-800 px-1';
  const on = loss ? queuesOnNode(loss, design, placement) : [];
  return (
    <>
      <button
        type="button"
        data-testid="sim-node-loss"
        aria-pressed={loss !== null}
        className={`${btn} ${loss ? '!bg-amber-700 hover:!bg-amber-600' : ''}`}
        onClick={() => runCommand('toggleNodeLoss', env)}
        title="What if a cluster node goes down: its queues stop delivering (quorum: until a new leader; classic: until the node is back)"
      >
        Node down
      </button>
      {loss && (
        <span data-testid="sim-node-loss-fields" className="flex flex-wrap items-center gap-1">
          {nodes.length > 0 ? (
            <select aria-label="Node that goes down" data-testid="sim-node-loss-node" className="rounded bg-slate-800 px-1 py-0.5" value={loss.node} onChange={(e) => set({ node: e.target.value })}>
              {[...new Set([...nodes, loss.node])].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          ) : (
            <input aria-label="Node that goes down" data-testid="sim-node-loss-node" className="w-28 rounded bg-slate-800 px-1" value={loss.node} onChange={(e) => set({ node: e.target.value })} />
          )}
          <label className="flex items-center gap-1" title="Virtual time at which the node goes down">
            at s
            <input aria-label="Node down at (s)" data-testid="sim-node-loss-at" type="number" min={0} step={0.1} className={field} value={secs(loss.atMs)} onChange={(e) => set({ atMs: Math.max(0, Number(e.target.value) * 1000) })} />
          </label>
          <label className="flex items-center gap-1" title="How long the node stays down">
            for s
            <input aria-label="Node down for (s)" data-testid="sim-node-loss-for" type="number" min={0} step={1} className={field} value={secs(loss.downMs)} onChange={(e) => set({ downMs: Math.max(0, Number(e.target.value) * 1000) })} />
          </label>
          <label className="flex items-center gap-1" title="How long a quorum queue it led takes to have a new leader (a graceful stop: about 1 s; a crash: the election timeout)">
            leader s
            <input aria-label="Leader moves after (s)" data-testid="sim-node-loss-leader" type="number" min={0} step={0.1} className={field} value={secs(loss.leaderMovesAfterMs)} onChange={(e) => set({ leaderMovesAfterMs: Math.max(0, Number(e.target.value) * 1000) })} />
          </label>
          <select
            aria-label="Queues on the node"
            data-testid="sim-node-loss-queues"
            className="rounded bg-slate-800 px-1 py-0.5"
            value={loss.queues === 'placement' ? 'placement' : 'all'}
            onChange={(e) => set({ queues: e.target.value === 'placement' ? 'placement' : design.topology.queues.map((q) => q.name) })}
            title={`queues on it: ${on.join(', ') || 'none'}`}
          >
            <option value="placement">{placement ? 'its queues (plan)' : 'all queues (not planned)'}</option>
            <option value="all">all queues</option>
          </select>
          <span data-testid="sim-node-loss-count" className="text-slate-400">
            {on.length} queue{on.length === 1 ? '' : 's'}
          </span>
        </span>
      )}
    </>
  );
}
