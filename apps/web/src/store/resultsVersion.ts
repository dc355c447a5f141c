/**
 * One notion of "current": every result (simulation, budget, trace, probe, plan, deploy,
 * teardown, import) is stamped with the design and the version it was computed for. The
 * version moves on every change of what a result depends on (topology, consumers, publishers,
 * profile; not the layout or the name); opening another design changes the design id. A
 * result from another design is not shown; one from an earlier version says so in words.
 */
import type { StateCreator } from 'zustand';
import type { Design } from '@retry-studio/topology-core/model';
import type { AppState } from './store';

/** the design (its id in My designs) and the version of it a result was computed for */
export interface DesignVersion {
  readonly docId: string;
  readonly revision: number;
}

export type Freshness = 'current' | 'stale' | 'other-design';

export const STALE_TEXT = 'computed for an earlier version of this design';

export interface ResultsVersionSlice {
  /** moves on every change of what results depend on (see designChanged) */
  designRevision: number;
  /** the open design changed: a new version (or `revision`, an earlier one it is again), and the simulation leaves the canvas */
  designVersionMoved: (revision?: number) => void;
}

export const createResultsVersionSlice: StateCreator<AppState, [], [], ResultsVersionSlice> = (set, get) => ({
  designRevision: 0,
  designVersionMoved: (revision) => {
    set((s) => ({ designRevision: revision ?? s.designRevision + 1, divergenceNode: null }));
    const s = get();
    if (s.simEvents || s.simError || s.inspectedMsg || s.simOutages.length) s.clearSimulation();
    if (s.liveEvents) s.setLiveEvents(null);
  },
});

/** What a result computed now belongs to. */
export function versionOf(s: Pick<AppState, 'docId' | 'designRevision'>): DesignVersion {
  return { docId: s.docId, revision: s.designRevision };
}

export function freshness(v: DesignVersion, now: DesignVersion): Freshness {
  if (v.docId !== now.docId) return 'other-design';
  return v.revision === now.revision ? 'current' : 'stale';
}

/** A change results depend on: the layout, the name and the description are not. */
export function designChanged(a: Design, b: Design): boolean {
  return (
    a.topology !== b.topology || a.consumers !== b.consumers || a.publishers !== b.publishers || a.profile !== b.profile
  );
}

/** how many earlier versions an undo can come back to (the undo history's depth and some) */
const VERSIONS_KEPT = 120;

/**
 * Moves the version when the open design changes (an edit, an undo or redo, another design
 * opened) and takes the simulation off the canvas: no old timeline, path, message or token.
 * Coming back to an earlier version (an undo to the traced design) is that version again: its
 * results are current, not "earlier"; a new version never reuses a number.
 */
export function trackDesignVersion(store: {
  getState: () => AppState;
  subscribe: (f: (s: AppState, prev: AppState) => void) => () => void;
}): () => void {
  const first = store.getState();
  const seen: { docId: string; design: Design; revision: number }[] = [
    { docId: first.docId, design: first.design, revision: first.designRevision },
  ];
  let highest = first.designRevision;
  return store.subscribe((s, prev) => {
    if (s.docId === prev.docId && (s.design === prev.design || !designChanged(s.design, prev.design))) return;
    const again = seen.find((v) => v.docId === s.docId && !designChanged(v.design, s.design));
    const revision = again?.revision ?? ++highest;
    if (!again) {
      seen.push({ docId: s.docId, design: s.design, revision });
      if (seen.length > VERSIONS_KEPT) seen.shift();
    }
    store.getState().designVersionMoved(revision);
  });
}
