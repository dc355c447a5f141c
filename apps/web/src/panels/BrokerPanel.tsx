import { useState } from 'react';
import { compilePortable } from '@retry-studio/topology-core';
import { useApp } from '../store/store';
import { PLAN_STATUSES, type PlanItem, type PlanResponse, type Probe, type TeardownResponse } from '@retry-studio/contract';
import { api, ApiError, maskUrl } from '../broker/api';
import { recallBroker, rememberBroker } from '../broker/brokerMemory';
import { brokerTarget } from '../broker/target';
import { EFFECT_LABEL, appliesInPlace, policyDetails, settingsFromPolicies } from '../broker/planDetails';
import { ClusterNodes, PlacementLine } from './ClusterNodes';
import { queueHomes } from '../sim/nodeLossWhatIf';

type Busy = null | 'probe' | 'plan' | 'deploy' | 'teardown';

const STATUS_TONE: Record<string, string> = {
  create: 'bg-emerald-900/60 text-emerald-200',
  update: 'bg-sky-900/70 text-sky-200',
  remove: 'bg-orange-900/70 text-orange-200',
  unchanged: 'bg-slate-700 text-slate-300',
  conflict: 'bg-red-900/70 text-red-200',
  unsupported: 'bg-amber-900/70 text-amber-200',
};

export function BrokerPanel() {
  const url = useApp((s) => s.brokerUrl);
  const prefix = useApp((s) => s.deployPrefix);
  const managementUrl = useApp((s) => s.managementUrl);
  const vhost = useApp((s) => s.deployVhost);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [probe, setProbe] = useState<Probe | null>(null);
  const [plan, setPlan] = useState<PlanResponse | null>(null);
  const [applied, setApplied] = useState<string | null>(null);
  const [confirmTeardown, setConfirmTeardown] = useState<null | {
    refused?: Array<{ queue: string; messages: number; consumers: number }>;
  }>(null);
  const [torn, setTorn] = useState<TeardownResponse | null>(null);
  const target = () => brokerTarget(useApp.getState());
  /** a broker URL brings back the management URL, prefix and vhost last used with it */
  const setUrl = (brokerUrl: string) => useApp.getState().setBroker({ brokerUrl, ...recallBroker(brokerUrl) });

  const run = async (what: Exclude<Busy, null>, f: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await f();
      const s = useApp.getState();
      rememberBroker(s.brokerUrl, {
        managementUrl: s.managementUrl,
        deployPrefix: s.deployPrefix,
        deployVhost: s.deployVhost,
      });
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const doProbe = () =>
    run('probe', async () => {
      const p = await api.probe(target());
      setProbe(p);
      useApp.getState().setBrokerNodes(p.cluster?.nodes.length);
      // the simulation's "node down" offers a cluster's nodes
      useApp.getState().setClusterNodeNames(p.cluster && p.cluster.nodes.length > 1 ? p.cluster.nodes.map((n) => n.name) : []);
    });
  const doPlan = () =>
    run('plan', async () => {
      setApplied(null);
      const r = await api.plan(useApp.getState().design, target());
      setPlan(r);
      useApp.getState().setQueuePlacement(queueHomes(r.plan));
    });
  const doDeploy = () =>
    run('deploy', async () => {
      try {
        const r = await api.deploy(useApp.getState().design, target());
        setPlan(r);
        useApp.getState().setQueuePlacement(queueHomes(r.plan));
        const skipped = r.result.skipped?.length ?? 0;
        setApplied(
          `Applied to ${r.target.vhost} with prefix “${r.target.prefix}”.${skipped ? ` ${skipped} object(s) left alone (conflict or unsupported).` : ''}`,
        );
      } catch (e) {
        if (e instanceof ApiError && e.body?.result) setApplied(null);
        throw e;
      }
    });
  /** Reads the queues' occupancy first (a plan changes nothing), so the confirmation can say what would be lost. */
  const askTeardown = () =>
    run('teardown', async () => {
      let refused: Array<{ queue: string; messages: number; consumers: number }> | undefined;
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
      setConfirmTeardown(refused ? { refused } : {});
    });
  const doTeardown = (force: boolean) =>
    run('teardown', async () => {
      try {
        const r = await api.teardown(useApp.getState().design.name, target(), force);
        setTorn(r);
        setConfirmTeardown(null);
        setPlan(null);
        useApp.getState().setQueuePlacement(undefined);
        setApplied(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && Array.isArray(e.body?.refused)) {
          setConfirmTeardown({
            refused: e.body!.refused as Array<{ queue: string; messages: number; consumers: number }>,
          });
          return;
        }
        throw e;
      }
    });

  const btn =
    'rounded px-2 py-1 text-xs disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';
  return (
    <div data-testid="broker-panel" className="space-y-3 p-2 text-xs text-slate-300">
      <TextField
        id="broker-url"
        label="Broker URL"
        hint="The password is masked; the server allows loopback brokers only."
        value={editing ? url : maskUrl(url)}
        onFocus={() => setEditing(true)}
        onBlur={() => setEditing(false)}
        onChange={setUrl}
      />
      <TextField
        id="broker-management-url"
        label="Management API URL (empty: found by itself)"
        placeholder="http://127.0.0.1:15672"
        hint="Tried when empty: port 15672, then the AMQP port + 10000. Accepted only if it is the same broker as the URL above."
        value={managementUrl}
        onChange={(v) => useApp.getState().setBroker({ managementUrl: v })}
      />
      <TextField
        id="deploy-prefix"
        label="Name prefix (keeps designs apart on one broker)"
        value={prefix}
        onChange={(v) => useApp.getState().setBroker({ deployPrefix: v })}
      />
      <TextField
        id="deploy-vhost"
        label="Vhost (empty: the broker URL's)"
        value={vhost}
        onChange={(v) => useApp.getState().setBroker({ deployVhost: v })}
      />
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
          disabled={!!busy || !plan}
          onClick={doDeploy}
          className={`${btn} bg-emerald-700 hover:bg-emerald-600`}
          title={plan ? 'Create what the plan says' : 'Plan first'}
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
      {error && (
        <div
          role="alert"
          data-testid="broker-error"
          className="rounded border border-red-700 bg-red-950/60 p-2 text-red-200"
        >
          {error}
        </div>
      )}
      {confirmTeardown && (
        <div
          data-testid="teardown-confirm"
          role="alertdialog"
          aria-label="Confirm tear down"
          className="rounded border border-red-700 bg-red-950/40 p-2"
        >
          {confirmTeardown.refused ? (
            <>
              <p className="mb-1 text-red-200">These queues are not empty or have consumers:</p>
              <ul className="mb-1 font-mono text-[10px]">
                {confirmTeardown.refused.map((r) => (
                  <li key={r.queue}>
                    {r.queue}: {r.messages} message(s), {r.consumers} consumer(s)
                  </li>
                ))}
              </ul>
              <p className="mb-1">
                Delete anyway? {confirmTeardown.refused.reduce((n, r) => n + r.messages, 0)} message(s) will be lost.
              </p>
              <button
                type="button"
                data-testid="teardown-force"
                disabled={!!busy}
                onClick={() => doTeardown(true)}
                className={`${btn} bg-red-700 hover:bg-red-600`}
              >
                Delete them and their messages
              </button>
            </>
          ) : (
            <>
              <p className="mb-1">
                Remove what Retry Studio created for “{useApp.getState().design.name}” (prefix “{prefix}”)? Only objects
                in its manifest are touched.
              </p>
              <button
                type="button"
                data-testid="teardown-confirm-yes"
                disabled={!!busy}
                onClick={() => doTeardown(false)}
                className={`${btn} bg-red-700 hover:bg-red-600`}
              >
                Yes, tear down
              </button>
            </>
          )}
          <button type="button" onClick={() => setConfirmTeardown(null)} className={`${btn} ml-1 bg-slate-700`}>
            Cancel
          </button>
        </div>
      )}
      {torn && (
        <div data-testid="teardown-result" className="rounded bg-slate-800 p-2">
          Deleted {torn.deleted.exchanges.length} exchange(s), {torn.deleted.queues.length} queue(s),{' '}
          {torn.deleted.bindings} binding(s); {torn.messagesDeleted} message(s) went with them.
        </div>
      )}
      {probe && <ProbeView p={probe} />}
      {applied && (
        <div
          data-testid="deploy-result"
          className="rounded border border-emerald-700 bg-emerald-950/40 p-2 text-emerald-200"
        >
          {applied}
        </div>
      )}
      {plan && <PlanView r={plan} />}
    </div>
  );
}

const PROFILE_LABEL: Record<string, string> = {
  '3.10': 'RabbitMQ 3.10',
  '4.x': 'RabbitMQ 4.0–4.2',
  '4.3': 'RabbitMQ 4.3',
};
const SOURCE_LABEL: Record<string, string> = {
  discovered: 'found by itself',
  given: 'as given',
  env: 'from RETRY_STUDIO_MANAGEMENT_URL',
};

function ProbeView({ p }: { p: Probe }) {
  const yes = (b: boolean) =>
    b ? <span className="text-emerald-400">yes</span> : <span className="text-slate-500">no</span>;
  const m = p.management;
  return (
    <div data-testid="broker-probe-result" className="rounded bg-slate-800 p-2">
      <div className="mb-1 font-semibold text-slate-100">
        <span data-testid="broker-version">
          {p.product} {p.version}
        </span>{' '}
        <span className="font-mono text-[10px] text-slate-400">{maskUrl(p.url)}</span>
      </div>
      {p.clusterName && <div className="text-[10px] text-slate-400">cluster {p.clusterName}</div>}
      {p.cluster && <ClusterNodes c={p.cluster} />}
      <div>quorum queues: {yes(p.quorum)}</div>
      {Object.entries(p.plugins).map(([k, v]) => (
        <div key={k}>
          {k}: {yes(v)}
        </div>
      ))}
      <div data-testid="broker-management" data-available={m.available}>
        management API: {yes(m.available)}
        {m.available && (
          <span className="font-mono text-[10px] text-slate-400">
            {' '}
            {m.baseUrl} ({SOURCE_LABEL[m.source ?? 'discovered']}
            {m.ms !== undefined ? `, ${m.ms} ms` : ''})
          </span>
        )}
      </div>
      {!m.available && m.error && (
        <div
          role="alert"
          data-testid="broker-management-error"
          className="mt-1 rounded border border-amber-700 bg-amber-950/40 p-1.5 text-[10px] text-amber-100"
        >
          {m.error}. Without it the plan cannot see what is already on the broker.
        </div>
      )}
      <ProfileOffer suggested={p.suggestedProfile} version={p.version} />
    </div>
  );
}

/** The broker's version decides which semantics the design should be simulated with: offered, one click, undoable. */
function ProfileOffer({ suggested, version }: { suggested: Probe['suggestedProfile']; version: string }) {
  const current = useApp((s) => s.design.profile ?? '3.10');
  const [switched, setSwitched] = useState<string | null>(null);
  if (switched && switched === current)
    return (
      <div data-testid="profile-switched" className="mt-1 text-[10px] text-emerald-300">
        The design now simulates {PROFILE_LABEL[current]}.{' '}
        <button type="button" data-testid="profile-undo" className="underline" onClick={() => useApp.getState().undo()}>
          Undo
        </button>
      </div>
    );
  if (!suggested || suggested === current) return null;
  return (
    <div
      data-testid="profile-offer"
      className="mt-1 rounded border border-sky-700 bg-sky-950/40 p-1.5 text-[10px] text-sky-100"
    >
      This broker is {version}; the design simulates {PROFILE_LABEL[current]}.{' '}
      <button
        type="button"
        data-testid="profile-switch"
        className="rounded bg-sky-700 px-1.5 py-0.5 hover:bg-sky-600"
        onClick={() => {
          const d = useApp.getState().design;
          useApp.getState().setDesign({ ...d, profile: suggested });
          setSwitched(suggested);
        }}
      >
        Use {PROFILE_LABEL[suggested]} semantics
      </button>
    </div>
  );
}

/**
 * Offered when the broker lacks the delayed-message plugin: the same design with TTL wait queues.
 * Once used it stays, listing what changed, until dismissed (the design no longer needs it then).
 */
function PortableOffer() {
  const [changes, setChanges] = useState<readonly string[] | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const design = useApp((s) => s.design);
  if (dismissed) return null;
  if (!changes && !design.topology.exchanges.some((x) => x.type === 'x-delayed-message')) return null;
  return (
    <div
      data-testid="portable-offer"
      className="mb-2 rounded border border-amber-700 bg-amber-950/40 p-2 text-amber-100"
    >
      <div className="mb-1">
        This broker cannot declare a delayed-message exchange. The portable compile replaces it with TTL wait queues
        (works on any RabbitMQ).
      </div>
      <button
        type="button"
        data-testid="portable-apply"
        className="rounded bg-amber-700 px-2 py-0.5 hover:bg-amber-600"
        onClick={() => {
          const r = compilePortable(useApp.getState().design);
          if (!r.ok) return setErr(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
          useApp.getState().setDesign(r.design);
          setChanges(r.changes);
        }}
      >
        Use the portable design (undoable)
      </button>
      <button
        type="button"
        data-testid="portable-dismiss"
        className="ml-1 rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
        onClick={() => setDismissed(true)}
      >
        Dismiss
      </button>
      {err && <div className="mt-1 text-red-300">{err}</div>}
      {changes && (
        <ul className="mt-1 list-disc pl-4 text-[10px]">
          {changes.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PlanView({ r }: { r: PlanResponse }) {
  const s = r.plan.summary;
  return (
    <div data-testid="plan-diff">
      {s.unsupported > 0 && <PortableOffer />}
      <div className="mb-1 flex flex-wrap gap-1">
        {PLAN_STATUSES.map((k) => (
          <span key={k} data-testid={`plan-count-${k}`} className={`rounded px-1.5 ${STATUS_TONE[k]}`}>
            {s[k] ?? 0} {k}
          </span>
        ))}
      </div>
      <div className="mb-1 text-[10px] text-slate-500">
        vhost {r.target.vhost}, prefix “{r.target.prefix}”{r.plan.vhostMissing ? ' (the vhost will be created)' : ''}
      </div>
      {r.plan.cluster && r.plan.cluster.problems.length > 0 && <ClusterNodes c={r.plan.cluster} />}
      <ul className="space-y-1">
        {r.plan.items.map((it, i) => (
          <PlanRow key={i} it={it} />
        ))}
      </ul>
    </div>
  );
}

function PlanRow({ it }: { it: PlanItem }) {
  return (
    <li data-testid="plan-item" data-kind={it.kind} data-status={it.status} className="rounded bg-slate-800/70 p-1.5">
      <div className="flex items-center gap-1.5">
        <span className={`w-20 shrink-0 rounded px-1 text-center text-[10px] ${STATUS_TONE[it.status]}`}>
          {it.status}
        </span>
        <span className="text-[10px] text-slate-500">{it.kind}</span>
        <span className="truncate font-mono text-[11px]" title={it.name}>
          {it.name}
        </span>
      </div>
      {it.message && <div className="mt-0.5 text-[10px] text-slate-400">{it.message}</div>}
      {it.kind === 'queue' && it.placement && <PlacementLine p={it.placement} />}
      {(it.kind === 'exchange' || it.kind === 'queue') && it.status === 'conflict' && it.actual && (
        <div className="mt-1 grid grid-cols-2 gap-1 font-mono text-[9px]">
          <div>
            <div className="text-slate-500">design</div>
            <pre className="whitespace-pre-wrap text-emerald-300">
              {JSON.stringify(it.desired.arguments ?? it.desired, null, 1)}
            </pre>
          </div>
          <div>
            <div className="text-slate-500">
              broker{it.kind === 'queue' ? ` (${it.actual.messages} msgs)` : ''}
            </div>
            <pre className="whitespace-pre-wrap text-red-300">
              {JSON.stringify(it.actual.arguments ?? it.actual, null, 1)}
            </pre>
          </div>
        </div>
      )}
      {it.kind === 'exchange' && it.status === 'unsupported' && (it.plugin || it.alternative) && (
        <div className="mt-0.5 text-[10px] text-amber-200">
          {it.plugin && <>needs {it.plugin}. </>}
          {it.alternative && <>Portable alternative: {it.alternative}</>}
        </div>
      )}
      {it.kind === 'queue' && <QueuePolicySettings it={it} />}
      {it.kind === 'policy' && <PolicyChanges it={it} />}
    </li>
  );
}

/** The settings a queue gets from a policy rather than its arguments (they can change later without a new queue). */
function QueuePolicySettings({ it }: { it: Extract<PlanItem, { kind: 'queue' }> }) {
  const from = settingsFromPolicies(it);
  if (!from.length) return null;
  return (
    <div data-testid="plan-queue-policy-settings" className="mt-0.5 font-mono text-[10px] text-slate-400">
      from policies: {from.join(', ')}
    </div>
  );
}

/** A policy's row: what it sets, or for an update each change and whether it reaches the existing queues. */
function PolicyChanges({ it }: { it: Extract<PlanItem, { kind: 'policy' }> }) {
  const lines = policyDetails(it);
  if (!lines.length) return null;
  const inPlace = appliesInPlace(lines);
  return (
    <div className="mt-0.5 text-[10px]">
      {(it.status === 'update' || it.status === 'remove') && (
        <div
          data-testid="plan-policy-in-place"
          data-in-place={inPlace}
          className={inPlace ? 'text-sky-200' : 'text-amber-200'}
        >
          {inPlace
            ? 'Applied in place: the queues it matches keep their messages.'
            : 'Partly in place: some keys reach only queues declared later.'}
        </div>
      )}
      <ul data-testid="plan-policy-changes" className="font-mono text-slate-300">
        {lines.map((l, i) => (
          <li key={i}>
            {l.text}
            {it.status === 'update' && l.effect && <span className="text-slate-500"> — {EFFECT_LABEL[l.effect]}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One labelled text input of the broker form (its id is also its test id). */
function TextField(p: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  placeholder?: string;
  onFocus?: () => void;
  onBlur?: () => void;
}) {
  return (
    <div>
      <label htmlFor={p.id} className="mb-0.5 block text-[11px] text-slate-400">
        {p.label}
      </label>
      <input
        id={p.id}
        data-testid={p.id}
        autoComplete="off"
        spellCheck={false}
        placeholder={p.placeholder}
        className="w-full rounded border border-slate-700 bg-slate-950 px-2 py-1 font-mono text-[11px]"
        value={p.value}
        onFocus={p.onFocus}
        onBlur={p.onBlur}
        onChange={(e) => p.onChange(e.target.value)}
      />
      {p.hint && <div className="mt-0.5 text-[10px] text-slate-500">{p.hint}</div>}
    </div>
  );
}
