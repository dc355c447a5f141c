/**
 * Operate a live broker: import a vhost into the designer, switch live depths on (one request
 * per interval for the whole vhost, paused while the tab is hidden), and jump to the queues
 * where dead letters pile up. Acts on the one broker context (store/brokerSlice.ts): a deployed
 * design's queues are read through its prefix, without importing anything.
 */
import { useEffect, useMemo, useState } from 'react';
import { type Design } from '@retry-studio/topology-core/model';
import { designGroup, groupNodesByPrefix } from '@retry-studio/topology-core/operate';
import type { ImportResponse } from '@retry-studio/contract';
import { useApp } from '../store/store';
import { ApiError } from '../broker/api';
import { contextVhost, operateAt } from '../broker/target';
import { operateApi } from '../operate/operateApi';
import { useOperate } from '../operate/operateStore';
import { currentOperateScope, useOperateScope } from '../operate/useOperateScope';
import { DEPTHS_INTERVAL_MS, useDepthsPolling } from '../operate/useDepthsPolling';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion, useFreshness } from '../store/useFreshness';
import { layoutDesign } from '../graph/autoLayout';
import { nodeCount } from '../model/designSize';
import { BrokerContextLine } from './BrokerContextLine';
import { btn, ImportedSummary, ImportGroups, OperateContextFields, PiledUp } from './operateParts';

/** Above this many nodes an import opens one name-prefix group at a time (the canvas stays usable). */
export const LARGE_IMPORT_NODES = 400;
/** Up to this many nodes an import is laid out along its flow (ELK), beyond it by name prefix. */
export const FLOW_LAYOUT_MAX_NODES = 150;

interface Imported {
  readonly v: DesignVersion;
  readonly r: ImportResponse;
  /** the context's prefix before the import */
  readonly prefixWas: string;
}

/** Opens an imported design (or one group of it) on the canvas: the flow's own layout where it stays fast */
async function openImported(design: Design): Promise<void> {
  if (nodeCount(design) <= FLOW_LAYOUT_MAX_NODES) design = { ...design, layout: await layoutDesign(design) };
  useApp.getState().loadDesign(design);
  useApp.getState().requestFit();
}

/** The vhost import and its summary, kept while the design it opened is open. */
function useVhostImport() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importedAs, setImported] = useState<Imported | null>(null);
  // the import's summary belongs to the design it opened: gone once another design is open
  const importedNow = useFreshness(importedAs?.v);
  const imported = importedAs && importedNow !== 'other-design' ? importedAs : null;
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const open = async (design: Design, group: string | null) => {
    await openImported(design);
    setOpenGroup(group);
    // a group of the import is still the import's design
    setImported((prev) => prev && { ...prev, v: currentVersion() });
    useOperate.getState().set({ resultsScope: currentOperateScope() });
  };
  const doImport = async () => {
    setBusy(true);
    setError(null);
    try {
      const prefixWas = useApp.getState().broker.prefix;
      const r = await operateApi.importBroker(operateAt(useApp.getState().broker));
      // the imported names are the broker's: the context reads them as they are (the summary says so)
      useApp.getState().setBroker({ vhost: r.vhost, prefix: '' });
      const g = groupNodesByPrefix(r.design);
      // a large vhost opens its largest group; the list switches groups
      if (g.reduce((n, x) => n + x.nodes.length, 0) > LARGE_IMPORT_NODES && g.length > 0) {
        const biggest = [...g].sort((a, b) => b.queues - a.queues)[0]!.key;
        await open(designGroup(r.design, biggest), biggest);
      } else await open(r.design, null);
      useOperate.getState().set({ roles: r.roles, resultsScope: currentOperateScope() });
      setImported({ v: currentVersion(), r, prefixWas });
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, imported, openGroup, open, doImport };
}

export function OperatePanel() {
  useDepthsPolling();
  const { polling, depths, depthsAt, roles } = useOperate();
  const broker = useApp((s) => s.broker);
  const { busy, error, imported, openGroup, open, doImport } = useVhostImport();
  const groups = useMemo(() => (imported ? groupNodesByPrefix(imported.r.design) : []), [imported?.r]);
  const large = groups.reduce((n, g) => n + g.nodes.length, 0) > LARGE_IMPORT_NODES;
  const set = useOperate.getState().set;

  // the toolbar's Open / Import asks for the vhost: imported here, one path
  const importAsked = useOperate((s) => s.importAsked);
  useEffect(() => {
    if (!importAsked) return;
    set({ importAsked: false });
    void doImport();
  }, [importAsked]);

  // the roles and depths of another design or context are not this one's: cleared (the import and polling fill them again)
  const scope = useOperateScope();
  useEffect(() => {
    const was = useOperate.getState().resultsScope;
    if (was !== scope)
      set({ ...(was !== '' ? { roles: {}, depths: {}, depthsAt: null, dlqQueue: '' } : {}), resultsScope: scope });
  }, [scope]);
  const browse = (designQueue: string) => {
    // one click reads it: the dead-letter panel browses the broker's name as soon as it is asked
    set({ dlqQueue: useApp.getState().broker.prefix + designQueue, browseAsked: true });
    useApp.getState().setBottomTab('deadLetters');
  };

  return (
    <div data-testid="operate-panel" className="space-y-2 p-2 text-xs">
      <BrokerContextLine panel="operate" />
      <OperateContextFields />
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          data-testid="operate-import"
          disabled={busy}
          onClick={doImport}
          className={`${btn} bg-sky-700 hover:bg-sky-600`}
          title="Opens the vhost's topology as a new design (the open one stays in My designs; Ctrl+Z goes back to it)"
        >
          {busy ? 'Importing…' : `Import vhost ${contextVhost(broker)}`}
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
      <p className="text-[11px] text-slate-500">
        Live depths and Browse read the open design's queues as {broker.prefix ? `“${broker.prefix}” + name` : 'named'}{' '}
        in this vhost: a deployed design needs no import.
        {broker.prefix ? ' An import opens the broker’s names as they are (prefix none).' : ''}
      </p>
      {error && (
        <div
          role="alert"
          data-testid="operate-error"
          className="rounded border border-red-700 bg-red-950/60 p-2 text-red-200"
        >
          {error}
        </div>
      )}
      {imported && <ImportedSummary imported={imported.r} prefixWas={imported.prefixWas} />}
      {imported && large && (
        <ImportGroups
          imported={imported.r}
          groups={groups}
          openGroup={openGroup}
          depths={depths}
          onOpen={(key) => open(designGroup(imported.r.design, key), key)}
        />
      )}
      {polling && (
        <div className="text-[11px] text-slate-400" data-testid="depths-status">
          Refreshed every {DEPTHS_INTERVAL_MS / 1000} s with one request for the whole vhost (paused while this tab is
          hidden){depthsAt ? `; last ${new Date(depthsAt).toLocaleTimeString()}` : ''}.
        </div>
      )}
      <PiledUp depths={depths} roles={roles} onBrowse={browse} />
    </div>
  );
}
