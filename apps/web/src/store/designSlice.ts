import type { StateCreator } from 'zustand';
import type { Design } from '@retry-studio/topology-core/model';
import { emptyDesign } from '../model/emptyDesign';
import { newDesignId } from './designId';
import type { AppState } from './store';

const HISTORY_LIMIT = 200;

/** One undo step: which stored design was open, and its content. */
export interface Snapshot {
  docId: string;
  design: Design;
}

/** What the last replacement replaced, for the "undo" notice. */
export interface Replaced {
  /** name of the design that was open before */
  previous: string;
  /** name of the design that replaced it */
  next: string;
  /** the previous design is kept in the named designs (it was not an untouched template) */
  kept: boolean;
}

export interface LoadOptions {
  /** the stored design's id (opening a named design); a fresh id otherwise */
  docId?: string;
  /** a template or a blank canvas nobody edited yet: not worth keeping once replaced */
  pristine?: boolean;
  /** false at start-up: nothing to go back to */
  history?: boolean;
}

export interface DesignSlice {
  design: Design;
  /** id of the named design being edited (persistence saves `design` under it) */
  docId: string;
  /** the open design is an untouched template or blank canvas */
  docPristine: boolean;
  past: Snapshot[];
  future: Snapshot[];
  /** key of the last coalescing edit (typing in one field makes one undo step) */
  coalesceKey: string | null;
  coalesceAt: number;
  replaced: Replaced | null;
  /**
   * Replace the design. `capture` records an undo step; a `coalesce` key merges consecutive
   * edits with the same key (within 1.5 s) into one step.
   */
  setDesign: (next: Design, opts?: { capture?: boolean; coalesce?: string }) => void;
  /**
   * Open another design (template, import, blank, a named design). The open one stays stored
   * under its id, and the switch is one undo step: Ctrl+Z brings the previous design back.
   */
  loadDesign: (next: Design, opts?: LoadOptions) => void;
  dismissReplaced: () => void;
  undo: () => void;
  redo: () => void;
}

const isEmpty = (d: Design) =>
  d.topology.exchanges.length + d.topology.queues.length + d.consumers.length + d.publishers.length === 0;

export const createDesignSlice: StateCreator<AppState, [], [], DesignSlice> = (set, get) => {
  /** After the open design changed identity: what was simulated or selected belonged to the other one. */
  const leaveDocument = () => {
    get().clearSimulation();
    get().setLiveEvents(null);
    get().requestFit();
  };
  return {
    design: emptyDesign(),
    docId: newDesignId(),
    docPristine: true,
    past: [],
    future: [],
    coalesceKey: null,
    coalesceAt: 0,
    replaced: null,
    setDesign: (next, opts = {}) => {
      const s = get();
      if (next === s.design) return;
      const capture = opts.capture ?? true;
      if (!capture) return set({ design: next, docPristine: false });
      const now = Date.now();
      if (opts.coalesce && opts.coalesce === s.coalesceKey && now - s.coalesceAt < 1500) {
        return set({ design: next, docPristine: false, coalesceAt: now, future: [] });
      }
      set({
        design: next,
        docPristine: false,
        past: [...s.past, { docId: s.docId, design: s.design }].slice(-HISTORY_LIMIT),
        future: [],
        coalesceKey: opts.coalesce ?? null,
        coalesceAt: now,
      });
    },
    loadDesign: (next, opts = {}) => {
      const s = get();
      const docId = opts.docId ?? newDesignId();
      // an empty canvas is nothing to go back to
      const keep = (opts.history ?? true) && !(isEmpty(s.design) && s.docPristine);
      set({
        design: next,
        docId,
        docPristine: opts.pristine ?? false,
        past: keep ? [...s.past, { docId: s.docId, design: s.design }].slice(-HISTORY_LIMIT) : [],
        future: [],
        coalesceKey: null,
        selected: [],
        replaced: keep ? { previous: s.design.name, next: next.name, kept: !s.docPristine } : null,
      });
      if (docId !== s.docId) leaveDocument();
    },
    dismissReplaced: () => set({ replaced: null }),
    undo: () => {
      const s = get();
      const prev = s.past[s.past.length - 1];
      if (!prev) return;
      set({
        design: prev.design,
        docId: prev.docId,
        docPristine: prev.docId === s.docId ? s.docPristine : false,
        past: s.past.slice(0, -1),
        future: [{ docId: s.docId, design: s.design }, ...s.future],
        coalesceKey: null,
        replaced: null,
      });
      if (prev.docId !== s.docId) leaveDocument();
    },
    redo: () => {
      const s = get();
      const next = s.future[0];
      if (!next) return;
      set({
        design: next.design,
        docId: next.docId,
        docPristine: next.docId === s.docId ? s.docPristine : false,
        past: [...s.past, { docId: s.docId, design: s.design }],
        future: s.future.slice(1),
        coalesceKey: null,
      });
      if (next.docId !== s.docId) leaveDocument();
    },
  };
};
