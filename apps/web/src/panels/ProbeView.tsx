/** What the probe found: the broker, its cluster, plugins, the management API, and the simulation profile it suggests. */
import { useState } from 'react';
import type { Probe } from '@retry-studio/contract';
import { useApp } from '../store/store';
import { maskUrl } from '../broker/api';
import { ClusterNodes } from './ClusterNodes';

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

/** the broker URL without its vhost path: the vhost is said apart (the Vhost field may name another) */
const brokerOnly = (url: string) => maskUrl(url).replace(/^(amqps?:\/\/[^/]+).*$/i, '$1');

export function ProbeView({ p, vhost }: { p: Probe; vhost: string }) {
  const yes = (b: boolean) =>
    b ? <span className="text-emerald-400">yes</span> : <span className="text-slate-500">no</span>;
  const m = p.management;
  return (
    <div data-testid="broker-probe-result" className="rounded bg-slate-800 p-2">
      <div className="mb-1 font-semibold text-slate-100">
        <span data-testid="broker-version">
          {p.product} {p.version}
        </span>{' '}
        <span className="font-mono text-[10px] text-slate-400">{brokerOnly(p.url)}</span>
      </div>
      <div data-testid="broker-probe-vhost" className="text-[10px] text-slate-400">
        vhost <span className="font-mono text-slate-200">{vhost}</span>
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
