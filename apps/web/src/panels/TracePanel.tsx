import { useState } from 'react';
import type { FailureModel } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import type { Difference, PredictionResponse } from '@retry-studio/contract';
import { brokerTargetKey } from '../broker/target';
import { useLiveTrace, type TracePhase } from '../broker/useLiveTrace';
import { player } from '../sim/player';
import { displayAt } from '../sim/compilePlayback';
import { failureText } from '../model/describe';
import { failureOfKind } from '../model/behaviourForm';
import { useFreshness } from '../store/useFreshness';
import { BrokerContextLine } from './BrokerContextLine';
import { StaleNote } from './StaleNote';

/**
 * Live trace: real hops stream in over SSE and animate in orange next to the simulator's
 * prediction (blue) for the same design, on the broker's clock; the first point where they part
 * is called out. Traces the design deployed at the broker context (store/brokerSlice.ts).
 */
export function TracePanel() {
  const [count, setCount] = useState(3);
  // null: the simulation bar's failure model (the prediction and the live workers use the same)
  const [ownFailure, setOwnFailure] = useState<FailureModel | null>(null);
  const simFailure = useApp((s) => s.failure);
  const failure = ownFailure ?? simFailure;
  // the simulation bar's "node down" goes into the prediction unless unticked
  const simLoss = useApp((s) => s.nodeLoss);
  const [withLoss, setWithLoss] = useState(true);
  const trace = useLiveTrace();
  const { phase, error, warning, prediction } = trace;
  // another design's trace is not shown; an earlier version's is marked and no longer drawn on the canvas
  const runNow = useFreshness(trace.runV);
  // torn down by the Broker tab at this target: nothing to trace until it is applied again
  const tornDown = useApp(
    (s) =>
      s.deployment?.state === 'torn-down' &&
      s.deployment.docId === s.docId &&
      s.deployment.target === brokerTargetKey(s.broker),
  );
  const start = () => {
    // the prediction drawn beside the live run is simulated with the trace's model: the simulation bar says the same
    if (ownFailure) {
      useApp.getState().setFailure(ownFailure);
      setOwnFailure(null);
    }
    void trace.start({ messages: count, failure, withLoss });
  };

  return (
    <div data-testid="trace-panel" className="flex h-full gap-3 overflow-auto p-2 text-xs text-slate-300">
      <div className="w-64 shrink-0 space-y-2">
        <BrokerContextLine panel="trace" />
        <p className="text-[11px] text-slate-400">
          Publishes test messages into the deployed design (Broker tab → Plan → Apply first) and runs its consumers on
          the real broker. Real hops are <span className="font-semibold text-orange-400">orange</span>, the prediction{' '}
          <span className="font-semibold text-sky-400">blue</span>; the replay plays on the broker&apos;s clock.
        </p>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1">
            messages
            <input
              data-testid="trace-count"
              type="number"
              min={1}
              max={10_000}
              value={count}
              onChange={(e) => setCount(Math.max(1, Math.min(10_000, Number(e.target.value))))}
              className="w-14 rounded bg-slate-800 px-1"
            />
          </label>
          <button
            type="button"
            data-testid="trace-start"
            disabled={phase === 'starting' || phase === 'running' || tornDown}
            title={
              tornDown ? 'Torn down at this broker target: apply the design again (Broker tab) to trace it' : undefined
            }
            onClick={start}
            className="rounded bg-orange-700 px-2 py-1 hover:bg-orange-600 disabled:opacity-40"
          >
            {phase === 'starting' ? 'Starting…' : 'Start live trace'}
          </button>
          {phase === 'running' && (
            <button type="button" onClick={trace.stop} className="rounded bg-slate-700 px-2 py-1">
              Stop
            </button>
          )}
        </div>
        {tornDown && phase !== 'running' && (
          <div data-testid="trace-torn-down" className="text-amber-300">
            Torn down at this broker target: Plan and Apply it again (Broker tab) to trace it.
          </div>
        )}
        <TraceFailureField value={ownFailure} simFailure={simFailure} onChange={setOwnFailure} />
        {simLoss && (
          <label
            className="flex items-center gap-1"
            title="The prediction includes the simulation bar's node loss (a node the trace sees go down on a cluster is put into the prediction by itself)"
          >
            <input
              data-testid="trace-node-loss"
              type="checkbox"
              checked={withLoss}
              onChange={(e) => setWithLoss(e.target.checked)}
            />
            predict with {simLoss.node} down
          </label>
        )}
        <TraceStatus phase={phase} n={trace.n} other={runNow === 'other-design'} />
        {trace.shown && trace.shown.seen > trace.shown.shown && (
          <div data-testid="trace-shown" className="text-slate-500">
            the canvas and the timeline show the first {trace.shown.shown} of {trace.shown.seen} messages (live and
            predicted); every event is counted
          </div>
        )}
        {runNow === 'stale' && (phase === 'ended' || phase === 'running' || error) && (
          <StaleNote what="This trace was" />
        )}
        {warning && runNow !== 'other-design' && <div className="text-amber-300">{warning}</div>}
        {error && runNow !== 'other-design' && (
          <div role="alert" data-testid="trace-error" className="text-red-400">
            {error}
          </div>
        )}
      </div>
      <div className={`min-w-0 flex-1 ${runNow === 'stale' ? 'opacity-60' : ''}`}>
        {prediction && runNow !== 'other-design' && (
          <ComparisonView cmp={prediction.comparison} loss={prediction.nodeLoss ?? null} />
        )}
      </div>
    </div>
  );
}

/** Where the trace is; `other`: the trace belongs to another design (a running one still says it runs) */
function TraceStatus({ phase, n, other }: { phase: TracePhase; n: number; other: boolean }) {
  return (
    <div data-testid="trace-status">
      {phase === 'idle' || (other && phase !== 'running')
        ? 'not running'
        : phase === 'running'
          ? `running${other ? ' (a trace of another design)' : ''}: ${n} real events`
          : phase === 'ended'
            ? `finished: ${n} real events`
            : 'starting'}
    </div>
  );
}

const FAILURE_KINDS: FailureModel['kind'][] = ['never', 'always', 'failFirst', 'percent', 'poison'];

/** The failure model of the trace's workers: the simulation bar's by default, or one of its own. */
function TraceFailureField({
  value,
  simFailure,
  onChange,
}: {
  value: FailureModel | null;
  simFailure: FailureModel;
  onChange: (f: FailureModel | null) => void;
}) {
  const num = 'w-12 rounded bg-slate-800 px-1';
  return (
    <div className="flex flex-wrap items-center gap-1">
      <label className="flex items-center gap-1">
        failure
        <select
          data-testid="trace-failure"
          className="rounded bg-slate-800 px-1"
          value={value ? value.kind : 'sim'}
          onChange={(e) =>
            onChange(
              e.target.value === 'sim'
                ? null
                : (failureOfKind(e.target.value as FailureModel['kind'], value ?? undefined) ?? null),
            )
          }
        >
          <option value="sim">as the simulation bar ({failureText(simFailure)})</option>
          {FAILURE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      {value?.kind === 'failFirst' && (
        <input
          data-testid="trace-failure-n"
          aria-label="fail the first n attempts"
          type="number"
          min={0}
          max={50}
          className={num}
          value={value.n}
          onChange={(e) => onChange({ kind: 'failFirst', n: Math.max(0, Math.floor(Number(e.target.value))) })}
        />
      )}
      {value?.kind === 'percent' && (
        <input
          data-testid="trace-failure-percent"
          aria-label="failure percent"
          type="number"
          min={0}
          max={100}
          className={num}
          value={value.percent}
          onChange={(e) => onChange({ kind: 'percent', percent: Math.max(0, Math.min(100, Number(e.target.value))) })}
        />
      )}
      {value?.kind === 'poison' && (
        <input
          aria-label="every n-th message is poison"
          type="number"
          min={1}
          className={num}
          value={value.every ?? 3}
          onChange={(e) => onChange({ kind: 'poison', every: Math.max(1, Math.floor(Number(e.target.value))) })}
        />
      )}
    </div>
  );
}

function ComparisonView({
  cmp,
  loss,
}: {
  cmp: PredictionResponse['comparison'];
  loss: PredictionResponse['nodeLoss'] | null;
}) {
  const d = cmp.firstDifference;
  return (
    <div data-testid="trace-comparison">
      <div className="mb-1">
        Prediction vs broker: <b>{cmp.matching}</b> of <b>{cmp.messagesCompared}</b> message(s) match so far.
        {(cmp.atLeastOnce ?? 0) > 0 && (
          <span data-testid="trace-at-least-once">
            {' '}
            {cmp.atLeastOnce} differ only as at-least-once duplicates (processed again after a redelivery).
          </span>
        )}
      </div>
      {loss && (
        <div data-testid="trace-node-loss-used" className="mb-1 text-amber-200">
          Predicted with {loss.node} down {loss.source === 'observed' ? '(as the trace saw it)' : '(as asked)'} at{' '}
          {Math.round(loss.atMs)} ms for {Math.round(loss.downMs)} ms, leader moved after{' '}
          {Math.round(loss.leaderMovesAfterMs)} ms: {loss.queues.join(', ') || 'no queue'}. Times are not compared,
          fates and steps are.
        </div>
      )}
      {d ? (
        <Divergence d={d} />
      ) : (
        cmp.messagesCompared > 0 && (
          <div data-testid="trace-match" className="text-emerald-400">
            No divergence: the broker did what the simulator predicted.
          </div>
        )
      )}
      {cmp.note && <div className="text-slate-500">{cmp.note}</div>}
    </div>
  );
}

function Divergence({ d }: { d: Difference }) {
  return (
    <div data-testid="trace-divergence" className="rounded border border-orange-600 bg-orange-950/40 p-2">
      <div className="mb-1 font-semibold text-orange-300">
        First divergence: {d.body} ({d.index < 0 ? 'step counts' : `step ${d.index + 1}`})
        {d.atLeastOnce ? ', an at-least-once duplicate' : ''}
      </div>
      {d.where && (
        <div data-testid="trace-divergence-where" className="mb-1 text-orange-200">
          at {d.where.exchange !== undefined ? `exchange ${d.where.exchange || '(default)'}` : `queue ${d.where.queue}`}
        </div>
      )}
      <div className="font-mono text-[11px]">
        <div>
          <span className="text-sky-400">predicted</span> {d.predicted ?? '(nothing more)'}
        </div>
        <div>
          <span className="text-orange-400">actual&nbsp;&nbsp;&nbsp;</span> {d.actual ?? '(nothing more)'}
        </div>
      </div>
      {useApp.getState().divergenceNode && (
        <div className="mt-1 text-[10px] text-orange-300">
          marked on the canvas at {useApp.getState().divergenceNode}
        </div>
      )}
      <button
        type="button"
        data-testid="trace-show-divergence"
        className="mt-1 rounded bg-slate-700 px-2 py-0.5"
        onClick={() => {
          useApp.getState().inspectMessage(d.msgId);
          const plan = player.plans.live;
          if (plan && d.at) {
            player.pause();
            player.seek(displayAt(plan, d.at.t));
          }
        }}
      >
        Show it on the canvas
      </button>
    </div>
  );
}
