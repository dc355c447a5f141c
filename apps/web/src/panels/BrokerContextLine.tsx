/**
 * Which broker, vhost and prefix a panel acts on: the one broker context (store/brokerSlice.ts),
 * said on every panel that talks to the broker, with the management API it uses or the
 * candidates the server will try (the contract's managementCandidates, never a port it does not
 * try). "Change" opens the Broker tab's form, the one place it is edited besides the vhost fields
 * of Operate and Open.
 */
import { useApp } from '../store/store';
import { maskUrl } from '../broker/api';
import { contextVhost, managementOf } from '../broker/target';

/** `panel`: where it is shown (data-panel, and no "change" on the Broker tab itself) */
export function BrokerContextLine({ panel, prefix = true }: { panel: string; prefix?: boolean }) {
  const broker = useApp((s) => s.broker);
  const found = useApp((s) => s.managementFound);
  const vhost = contextVhost(broker);
  const m = managementOf(broker, found);
  const change = () => {
    const s = useApp.getState();
    s.setView('designer');
    s.setSideTab('broker');
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-testid=deploy-vhost]')?.focus());
  };
  return (
    <div
      data-testid="broker-context"
      data-panel={panel}
      data-vhost={vhost}
      data-prefix={broker.prefix}
      data-management={m.kind === 'candidates' ? m.urls.join(' ') : m.url}
      className="rounded border border-slate-800 bg-slate-900/70 px-1.5 py-1 text-[11px] leading-snug text-slate-400"
    >
      <span className="break-all font-mono text-slate-300">
        {broker.url.trim() ? maskUrl(broker.url) : "the server's default broker"}
      </span>
      {' · vhost '}
      <span className="font-mono font-semibold text-slate-100">{vhost}</span>
      {broker.vhost.trim() ? '' : " (the URL's)"}
      {prefix && (
        <>
          {' · prefix '}
          <span className="font-mono text-slate-100">{broker.prefix || 'none'}</span>
        </>
      )}
      <div data-testid="broker-context-management">
        management{' '}
        {m.kind === 'candidates' ? (
          <>
            {m.urls.length > 1 ? 'tried in turn: ' : 'tried: '}
            <span className="break-all font-mono">{m.urls.join(', ')}</span>
          </>
        ) : (
          <>
            <span className="break-all font-mono">{m.url}</span>
            {m.kind === 'found' ? ' (found by the probe)' : ''}
          </>
        )}
        {panel !== 'broker' && (
          <button
            type="button"
            data-testid="broker-context-change"
            onClick={change}
            className="ml-1.5 rounded px-1 text-sky-300 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
          >
            change
          </button>
        )}
      </div>
    </div>
  );
}
