/**
 * Operate a live broker: import a vhost into the designer, switch live depths on (one request
 * per interval for the whole vhost, paused while the tab is hidden), and jump to the queues
 * where dead letters pile up.
 */
import { useEffect, useMemo, useState } from 'react';
import { type Design } from '@retry-studio/topology-core/model';
import { designGroup, groupNodesByPrefix, namePrefix } from '@retry-studio/topology-core/operate';
import { useApp } from '../store/store';
import { ApiError } from '../broker/api';
import type { ImportResponse } from '@retry-studio/contract';
import { operateApi } from '../operate/operateApi';
import { vhostNamedBy } from '../broker/vhostNamedBy';
import { useOperate } from '../operate/operateStore';
import { currentOperateScope, useOperateScope } from '../operate/useOperateScope';
import { DEPTHS_INTERVAL_MS, useDepthsPolling } from '../operate/useDepthsPolling';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion, useFreshness } from '../store/useFreshness';
import { layoutDesign } from '../graph/autoLayout';

/** Above this many nodes an import opens one name-prefix group at a time (the canvas stays usable). */
export const LARGE_IMPORT_NODES = 400;
/** Up to this many nodes an import is laid out along its flow (ELK), beyond it by name prefix. */
export const FLOW_LAYOUT_MAX_NODES = 150;

const btn =
  'rounded px-2.5 py-1 text-xs font-medium disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';
const input = 'w-full rounded border border-slate-700 bg-slate-950 px-2 py-1 font-mono text-[11px]';

export const operateTarget = () => {
  const o = useOperate.getState();
  return {
    broker: useApp.getState().brokerUrl.trim() || undefined,
    managementUrl: o.managementUrl.trim() || undefined,
    vhost: o.vhost.trim() || undefined,
  };
};

export function OperatePanel() {
  useDepthsPolling();
  const { managementUrl, vhost, prefix, polling, depths, depthsAt, roles } = useOperate();
  const urlVhost = vhostNamedBy(useApp((s) => s.brokerUrl));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importedAs, setImported] = useState<{ v: DesignVersion; r: ImportResponse } | null>(null);
  // the import's summary belongs to the design it opened: gone once another design is open
  const importedNow = useFreshness(importedAs?.v);
  const imported = importedAs && importedNow !== 'other-design' ? importedAs.r : null;
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const groups = useMemo(() => (imported ? groupNodesByPrefix(imported.design) : []), [imported]);
  const large = groups.reduce((n, g) => n + g.nodes.length, 0) > LARGE_IMPORT_NODES;
  const open = async (design: Design, group: string | null) => {
    // the flow's own layout (entries left, dead letters right) where it stays fast; a large vhost keeps the prefix blocks
    const nodes =
      design.topology.queues.length +
      design.topology.exchanges.length +
      design.consumers.length +
      design.publishers.length;
    if (nodes <= FLOW_LAYOUT_MAX_NODES) design = { ...design, layout: await layoutDesign(design) };
    useApp.getState().loadDesign(design);
    useApp.getState().requestFit();
    setOpenGroup(group);
    // a group of the import is still the import's design
    setImported((prev) => prev && { v: currentVersion(), r: prev.r });
    useOperate.getState().set({ resultsScope: currentOperateScope() });
  };
  const set = useOperate.getState().set;

  const doImport = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await operateApi.importBroker(operateTarget());
      const g = groupNodesByPrefix(r.design);
      const isLarge = g.reduce((n, x) => n + x.nodes.length, 0) > LARGE_IMPORT_NODES;
      // a large vhost opens its largest group; the list below switches groups
      if (isLarge && g.length > 0) {
        const biggest = [...g].sort((a, b) => b.queues - a.queues)[0]!.key;
        await open(designGroup(r.design, biggest), biggest);
      } else await open(r.design, null);
      set({ roles: r.roles, prefix: '', resultsScope: currentOperateScope() });
      setImported({ v: currentVersion(), r });
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // the toolbar's Open / Import asks for the vhost: imported here, one path
  const importAsked = useOperate((s) => s.importAsked);
  useEffect(() => {
    if (!importAsked) return;
    set({ importAsked: false });
    void doImport();
  }, [importAsked]);

  // the roles and depths of another design or vhost are not this one's: cleared (the import and polling fill them again)
  const scope = useOperateScope();
  useEffect(() => {
    const was = useOperate.getState().resultsScope;
    if (was !== scope)
      set({ ...(was !== '' ? { roles: {}, depths: {}, depthsAt: null, dlqQueue: '' } : {}), resultsScope: scope });
  }, [scope]);
  const parking = Object.entries(roles)
    .filter(([, r]) => r === 'parking')
    .map(([q]) => q);
  const piled = Object.values(depths)
    .filter((d) => d.ready > 0)
    .sort((a, b) => b.ready - a.ready)
    .slice(0, 8);
  const browse = (queue: string) => {
    // one click reads it: the dead-letter panel browses as soon as it is asked
    set({ dlqQueue: queue, browseAsked: true });
    useApp.getState().setBottomTab('deadLetters');
  };

  return (
    <div data-testid="operate-panel" className="space-y-2 p-2 text-xs">
      <p className="text-[11px] text-slate-400">
        Uses the broker URL of the Broker tab. Reads go through the management API.
      </p>
      <div>
        <label htmlFor="operate-mgmt" className="mb-0.5 block text-[11px] text-slate-400">
          Management API URL (default: the broker host, port 15672)
        </label>
        <input
          id="operate-mgmt"
          data-testid="operate-mgmt-url"
          className={input}
          placeholder="http://127.0.0.1:15672"
          value={managementUrl}
          onChange={(e) => set({ managementUrl: e.target.value })}
        />
      </div>
      <div className="flex gap-2">
        <div className="flex-1">
          <label
            htmlFor="operate-vhost"
            className="mb-0.5 block text-[11px] text-slate-400"
            title="empty: the vhost the broker URL names"
          >
            Vhost
          </label>
          <input
            id="operate-vhost"
            data-testid="operate-vhost"
            className={input}
            value={vhost}
            placeholder={urlVhost ? `${urlVhost} (the broker URL's)` : "the broker URL's"}
            onChange={(e) => set({ vhost: e.target.value })}
          />
        </div>
        <div className="flex-1">
          <label
            htmlFor="operate-prefix"
            className="mb-0.5 block text-[11px] text-slate-400"
            title="for a design deployed with a name prefix"
          >
            Queue prefix
          </label>
          <input
            id="operate-prefix"
            data-testid="operate-prefix"
            className={input}
            value={prefix}
            onChange={(e) => set({ prefix: e.target.value })}
          />
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          data-testid="operate-import"
          disabled={busy}
          onClick={doImport}
          className={`${btn} bg-sky-700 hover:bg-sky-600`}
          title="Replaces the design on the canvas with the vhost's topology"
        >
          {busy ? 'Importing…' : 'Import from broker'}
        </button>
        <button
          type="button"
          data-testid="depths-toggle"
          aria-pressed={polling}
          onClick={() => set(polling ? { polling: false, depths: {}, depthsAt: null } : { polling: true })}
          className={`${btn} ${polling ? 'bg-amber-700 hover:bg-amber-600' : 'bg-slate-700 hover:bg-slate-600'}`}
        >
          {polling ? 'Stop live depths' : 'Live depths'}
        </button>
      </div>
      {error && (
        <div
          role="alert"
          data-testid="operate-error"
          className="rounded border border-red-700 bg-red-950/60 p-2 text-red-200"
        >
          {error}
        </div>
      )}
      {imported && (
        <div data-testid="operate-imported" className="rounded border border-slate-700 bg-slate-950/60 p-2">
          RabbitMQ {imported.rabbitVersion}, vhost “{imported.vhost}” (profile {imported.design.profile}
          {imported.v43 ? ', 4.3 rules' : ''}): {imported.design.topology.queues.length} queues,{' '}
          {imported.design.topology.exchanges.length} exchanges; {imported.design.consumers.length} workers and{' '}
          {imported.design.publishers.length} publishers scaffolded; {imported.lint.length} lint finding(s). Read in{' '}
          {imported.timings.readMs} ms.
          {imported.skipped.length > 0 && (
            <div className="mt-1 text-amber-300">
              Skipped {imported.skipped.length}:{' '}
              {imported.skipped
                .slice(0, 4)
                .map((s) => `${s.name} (${s.reason})`)
                .join('; ')}
            </div>
          )}
        </div>
      )}
      {imported && large && (
        <div data-testid="operate-groups">
          <div className="mb-1 text-[11px] font-semibold text-slate-300">
            {groups.length} groups by name prefix ({imported.design.topology.queues.length} queues): one is drawn at a
            time
          </div>
          <ul className="max-h-64 space-y-0.5 overflow-auto">
            {groups.map((g) => {
              const ready = imported.design.topology.queues
                .filter((q) => namePrefix(q.name) === g.key)
                .reduce((n, q) => n + (depths[prefix + q.name]?.ready ?? 0), 0);
              return (
                <li key={g.key}>
                  <button
                    type="button"
                    data-testid="operate-group"
                    data-key={g.key}
                    aria-pressed={openGroup === g.key}
                    onClick={() => open(designGroup(imported.design, g.key), g.key)}
                    className={`flex w-full justify-between rounded px-1 text-left font-mono text-[11px] ${openGroup === g.key ? 'bg-sky-900/70' : 'hover:bg-slate-800'}`}
                  >
                    <span className="truncate">{g.key}</span>
                    <span className="text-slate-400">
                      {g.queues} queues{ready ? ` · ${ready} ready` : ''}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {polling && (
        <div className="text-[11px] text-slate-400" data-testid="depths-status">
          Refreshed every {DEPTHS_INTERVAL_MS / 1000} s with one request for the whole vhost (paused while this tab is
          hidden){depthsAt ? `; last ${new Date(depthsAt).toLocaleTimeString()}` : ''}.
        </div>
      )}
      {(parking.length > 0 || piled.length > 0) && (
        <div>
          <div className="mb-1 text-[11px] font-semibold text-slate-300">Where messages pile up</div>
          <ul className="space-y-0.5">
            {[...new Set([...piled.map((d) => d.name.slice(prefix.length)), ...parking])].map((q) => (
              <li key={q} className="flex items-center justify-between gap-2">
                <span className="truncate font-mono text-[11px]">
                  {q}
                  {roles[q] === 'parking' ? <span className="ml-1 text-rose-300">parking</span> : null}
                  {depths[prefix + q] ? (
                    <span className="ml-1 text-slate-400">{depths[prefix + q]!.ready} ready</span>
                  ) : null}
                </span>
                <button
                  type="button"
                  data-testid={`operate-browse-${q}`}
                  onClick={() => browse(q)}
                  className={`${btn} bg-slate-700 hover:bg-slate-600`}
                >
                  Browse
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
