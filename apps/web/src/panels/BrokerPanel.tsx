/**
 * The Broker tab: the form, then probe, plan, apply and tear down. Every result is stamped with
 * the design and version it was computed for (store/resultsVersion.ts): another design's result
 * is not shown, an earlier version's says so.
 */
import { useState } from 'react';
import type { PlanResponse, Probe, QueueOccupancy, TeardownResponse } from '@retry-studio/contract';
import { useApp } from '../store/store';
import { api, ApiError } from '../broker/api';
import { rememberBroker } from '../broker/brokerMemory';
import { brokerTarget, brokerTargetKey } from '../broker/target';
import { vhostNamedBy } from '../broker/amqpUrlPreview';
import { queueHomes } from '../sim/nodeLossWhatIf';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion, useFreshness } from '../store/useFreshness';
import { BrokerForm } from './BrokerForm';
import { BrokerContextLine } from './BrokerContextLine';
import { ProbeView } from './ProbeView';
import { PlanTable } from './PlanTable';
import { StaleNote } from './StaleNote';
import { TeardownConfirm } from './TeardownConfirm';

type Busy = null | 'probe' | 'plan' | 'deploy' | 'teardown';
/** a result and the design version it was computed for */
interface Stamped<T> {
  readonly v: DesignVersion;
  readonly value: T;
}
const stamp = <T,>(value: T): Stamped<T> => ({ v: currentVersion(), value });

const btn =
  'rounded px-2 py-1 text-xs disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';

export function BrokerPanel() {
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<Stamped<string> | null>(null);
  const [probe, setProbe] = useState<Stamped<Probe & { readonly vhost: string }> | null>(null);
  const [plan, setPlan] = useState<Stamped<PlanResponse> | null>(null);
  const [applied, setApplied] = useState<Stamped<string> | null>(null);
  const [confirmTeardown, setConfirmTeardown] = useState<Stamped<{ refused?: readonly QueueOccupancy[] }> | null>(null);
  const [torn, setTorn] = useState<Stamped<TeardownResponse> | null>(null);
  const probeNow = useFreshness(probe?.v);
  const planNow = useFreshness(plan?.v);
  const appliedNow = useFreshness(applied?.v);
  const tornNow = useFreshness(torn?.v);
  const errorNow = useFreshness(error?.v);
  const confirmNow = useFreshness(confirmTeardown?.v);
  const target = () => brokerTarget(useApp.getState().broker);

  const run = async (what: Exclude<Busy, null>, f: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await f();
      const b = useApp.getState().broker;
      rememberBroker(b.url, b);
    } catch (e) {
      setError(stamp(e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message));
    } finally {
      setBusy(null);
    }
  };

  const doProbe = () =>
    run('probe', async () => {
      const t = target();
      const p = await api.probe(t);
      // the vhost the tab works in (the Vhost field, else the URL's): the card says it
      setProbe(stamp({ ...p, vhost: t.vhost ?? vhostNamedBy(p.url) ?? '/' }));
      useApp.getState().setBrokerNodes(p.cluster?.nodes.length);
      // every panel's context line says which management API was found (the probe asked for this URL)
      if (useApp.getState().broker.url.trim() === (t.broker ?? ''))
        useApp.getState().setManagementFound(p.management.available ? p.management.baseUrl : null);
      useApp.getState().setBrokerVersion(useApp.getState().docId, p.version);
      // the simulation's "node down" offers a cluster's nodes
      useApp
        .getState()
        .setClusterNodeNames(p.cluster && p.cluster.nodes.length > 1 ? p.cluster.nodes.map((n) => n.name) : []);
    });
  const doPlan = () =>
    run('plan', async () => {
      setApplied(null);
      const r = await api.plan(useApp.getState().design, target());
      setPlan(stamp(r));
      useApp.getState().setQueuePlacement(queueHomes(r.plan));
    });
  const doDeploy = () =>
    run('deploy', async () => {
      try {
        const r = await api.deploy(useApp.getState().design, target());
        setPlan(stamp(r));
        useApp.getState().setQueuePlacement(queueHomes(r.plan));
        const skipped = r.result.skipped?.length ?? 0;
        // the context is the deployment now: Live trace, Operate and Dead letters act on its vhost and prefix
        useApp.getState().setBroker({ vhost: r.target.vhost, prefix: r.target.prefix });
        useApp.getState().setDeployment({
          docId: useApp.getState().docId,
          target: brokerTargetKey(useApp.getState().broker),
          state: 'applied',
        });
        setApplied(
          stamp(
            `Applied to ${r.target.vhost} with prefix “${r.target.prefix}”.${skipped ? ` ${skipped} object(s) left alone (conflict or unsupported).` : ''}`,
          ),
        );
      } catch (e) {
        if (e instanceof ApiError && e.body?.result) setApplied(null);
        throw e;
      }
    });
  /** Reads the queues' occupancy first (a plan changes nothing), so the confirmation can say what would be lost. */
  const askTeardown = () =>
    run('teardown', async () => {
      let refused: QueueOccupancy[] | undefined;
      try {
        const p = await api.plan(useApp.getState().design, target());
        const refusedNow = p.plan.items.flatMap((i) =>
          i.kind === 'queue' && i.actual && (i.actual.messages > 0 || i.actual.consumers > 0)
            ? [{ queue: i.name, messages: i.actual.messages, consumers: i.actual.consumers }]
            : [],
        );
        if (refusedNow.length) refused = refusedNow;
      } catch {
        /* no plan (e.g. the design changed shape): the server's own refusal still protects the messages */
      }
      setConfirmTeardown(stamp(refused ? { refused } : {}));
    });
  const doTeardown = (force: boolean) =>
    run('teardown', async () => {
      try {
        const r = await api.teardown(useApp.getState().design.name, target(), force);
        setTorn(stamp(r));
        useApp.getState().setDeployment({
          docId: useApp.getState().docId,
          target: brokerTargetKey(useApp.getState().broker),
          state: 'torn-down',
        });
        setConfirmTeardown(null);
        setPlan(null);
        useApp.getState().setQueuePlacement(undefined);
        setApplied(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && Array.isArray(e.body?.refused)) {
          setConfirmTeardown(stamp({ refused: e.body!.refused as QueueOccupancy[] }));
          return;
        }
        throw e;
      }
    });

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
          onClick={doProbe}
          className={`${btn} bg-slate-700 hover:bg-slate-600`}
        >
          {busy === 'probe' ? 'Probing…' : 'Probe'}
        </button>
        <button
          type="button"
          data-testid="broker-plan"
          disabled={!!busy}
          onClick={doPlan}
          className={`${btn} bg-slate-700 hover:bg-slate-600`}
        >
          {busy === 'plan' ? 'Planning…' : 'Plan'}
        </button>
        <button
          type="button"
          data-testid="broker-apply"
          disabled={!!busy || !planCurrent}
          onClick={doDeploy}
          className={`${btn} bg-emerald-700 hover:bg-emerald-600`}
          title={planCurrent ? 'Create what the plan says' : 'Plan this version of the design first'}
        >
          {busy === 'deploy' ? 'Applying…' : 'Apply'}
        </button>
        <button
          type="button"
          data-testid="broker-teardown"
          disabled={!!busy}
          onClick={askTeardown}
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
          onConfirm={doTeardown}
          onCancel={() => setConfirmTeardown(null)}
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
