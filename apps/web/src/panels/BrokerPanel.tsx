/**
 * The Broker tab: the form, then probe, plan, apply and tear down. Every result is stamped with
 * the design and version it was computed for (store/resultsVersion.ts): another design's result
 * is not shown, an earlier version's says so.
 */
import { useBrokerActions } from '../broker/useBrokerActions';
import { useFreshness } from '../store/useFreshness';
import { BrokerForm } from './BrokerForm';
import { BrokerContextLine } from './BrokerContextLine';
import { ProbeView } from './ProbeView';
import { PlanTable } from './PlanTable';
import { StaleNote } from './StaleNote';
import { TeardownConfirm } from './TeardownConfirm';

const btn =
  'rounded px-2 py-1 text-xs disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';

export function BrokerPanel() {
  const { busy, error, probe, plan, applied, confirmTeardown, torn, ...act } = useBrokerActions();
  const probeNow = useFreshness(probe?.v);
  const planNow = useFreshness(plan?.v);
  const appliedNow = useFreshness(applied?.v);
  const tornNow = useFreshness(torn?.v);
  const errorNow = useFreshness(error?.v);
  const confirmNow = useFreshness(confirmTeardown?.v);
  const shown = (f: ReturnType<typeof useFreshness>) => f === 'current' || f === 'stale';
  const planCurrent = planNow === 'current';
  return (
    <div data-testid="broker-panel" className="space-y-3 p-2 text-xs text-slate-300">
      <BrokerForm />
      <BrokerContextLine panel="broker" />
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          data-testid="broker-probe"
          disabled={!!busy}
          onClick={act.doProbe}
          className={`${btn} bg-slate-700 hover:bg-slate-600`}
        >
          {busy === 'probe' ? 'Probing…' : 'Probe'}
        </button>
        <button
          type="button"
          data-testid="broker-plan"
          disabled={!!busy}
          onClick={act.doPlan}
          className={`${btn} bg-slate-700 hover:bg-slate-600`}
        >
          {busy === 'plan' ? 'Planning…' : 'Plan'}
        </button>
        <button
          type="button"
          data-testid="broker-apply"
          disabled={!!busy || !planCurrent}
          onClick={act.doDeploy}
          className={`${btn} bg-emerald-700 hover:bg-emerald-600`}
          title={planCurrent ? 'Create what the plan says' : 'Plan this version of the design first'}
        >
          {busy === 'deploy' ? 'Applying…' : 'Apply'}
        </button>
        <button
          type="button"
          data-testid="broker-teardown"
          disabled={!!busy}
          onClick={act.askTeardown}
          className={`${btn} bg-red-800 hover:bg-red-700`}
        >
          Tear down…
        </button>
      </div>
      {error && shown(errorNow) && (
        <div
          role="alert"
          data-testid="broker-error"
          className="rounded border border-red-700 bg-red-950/60 p-2 text-red-200"
        >
          {errorNow === 'stale' && <span className="text-amber-200">(for an earlier version of this design) </span>}
          {error.value}
        </div>
      )}
      {confirmTeardown && confirmNow !== 'other-design' && (
        <TeardownConfirm
          refused={confirmTeardown.value.refused}
          busy={!!busy}
          onConfirm={act.doTeardown}
          onCancel={act.cancelTeardown}
        />
      )}
      {torn && shown(tornNow) && (
        <div data-testid="teardown-result" className="space-y-1 rounded bg-slate-800 p-2">
          {tornNow === 'stale' && <StaleNote what="This teardown was" />}
          <div>
            Deleted {torn.value.deleted.exchanges.length} exchange(s), {torn.value.deleted.queues.length} queue(s),{' '}
            {torn.value.deleted.bindings} binding(s); {torn.value.messagesDeleted} message(s) went with them.
          </div>
          {!torn.value.ok && (
            <div data-testid="teardown-left" className="text-amber-300">
              Left on the broker ({torn.value.left.length}):
              <ul className="ml-4 list-disc">
                {torn.value.left.map((l) => (
                  <li key={`${l.kind}:${l.name}`}>
                    {l.kind} <code>{l.name}</code>: {l.why}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
      {probe && shown(probeNow) && <ProbeView p={probe.value} vhost={probe.value.vhost} />}
      {applied && shown(appliedNow) && (
        <div
          data-testid="deploy-result"
          className="space-y-1 rounded border border-emerald-700 bg-emerald-950/40 p-2 text-emerald-200"
        >
          {appliedNow === 'stale' && <StaleNote what="This deploy's plan was" />}
          <div>{applied.value}</div>
        </div>
      )}
      {plan && shown(planNow) && (
        <div data-testid="plan-result" data-fresh={planNow} className="space-y-1">
          {planNow === 'stale' && <StaleNote what="This plan was" />}
          {/* after Apply the broker has what the plan said to create: the table is what was done, not what a plan says now */}
          {applied && appliedNow === 'current' && planNow === 'current' && (
            <div data-testid="plan-applied-note" className="text-[11px] text-slate-400">
              The plan as applied: press Plan to compare with the broker now.
            </div>
          )}
          <div className={planNow === 'stale' ? 'opacity-60' : ''}>
            <PlanTable r={plan.value} />
          </div>
        </div>
      )}
    </div>
  );
}
