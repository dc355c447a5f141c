/**
 * The Broker tab's actions on the broker context (store/brokerSlice.ts): probe, plan, apply and
 * tear down, each result stamped with the design version it was computed for. A deploy sets the
 * context to the deployment; the settings are remembered per broker after every answer.
 */
import { useState } from 'react';
import type { PlanResponse, Probe, QueueOccupancy, TeardownResponse } from '@retry-studio/contract';
import { useApp } from '../store/store';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion } from '../store/useFreshness';
import { queueHomes } from '../sim/nodeLossWhatIf';
import { api, ApiError } from './api';
import { rememberBroker } from './brokerMemory';
import { brokerTarget, brokerTargetKey } from './target';
import { vhostNamedBy } from './amqpUrlPreview';

export type BrokerBusy = null | 'probe' | 'plan' | 'deploy' | 'teardown';
/** a result and the design version it was computed for */
export interface Stamped<T> {
  readonly v: DesignVersion;
  readonly value: T;
}
const stamp = <T>(value: T): Stamped<T> => ({ v: currentVersion(), value });

export function useBrokerActions() {
  const [busy, setBusy] = useState<BrokerBusy>(null);
  const [error, setError] = useState<Stamped<string> | null>(null);
  const [probe, setProbe] = useState<Stamped<Probe & { readonly vhost: string }> | null>(null);
  const [plan, setPlan] = useState<Stamped<PlanResponse> | null>(null);
  const [applied, setApplied] = useState<Stamped<string> | null>(null);
  const [confirmTeardown, setConfirmTeardown] = useState<Stamped<{ refused?: readonly QueueOccupancy[] }> | null>(null);
  const [torn, setTorn] = useState<Stamped<TeardownResponse> | null>(null);
  const target = () => brokerTarget(useApp.getState().broker);

  const run = async (what: Exclude<BrokerBusy, null>, f: () => Promise<void>) => {
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

  return {
    busy,
    error,
    probe,
    plan,
    applied,
    confirmTeardown,
    torn,
    cancelTeardown: () => setConfirmTeardown(null),
    doProbe,
    doPlan,
    doDeploy,
    askTeardown,
    doTeardown,
  };
}
