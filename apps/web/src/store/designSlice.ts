import type { StateCreator } from 'zustand';
import type { Design } from '@retry-studio/topology-core';
import { emptyDesign } from '../model/emptyDesign';
import type { AppState } from './store';

const HISTORY_LIMIT = 200;

export interface DesignSlice {
  design: Design;
  past: Design[];
  future: Design[];
  /** key of the last coalescing edit (typing in one field makes one undo step) */
  coalesceKey: string | null;
  coalesceAt: number;
  /**
   * Replace the design. `capture` records an undo step; a `coalesce` key merges consecutive
   * edits with the same key (within 1.5 s) into one step.
   */
  setDesign: (next: Design, opts?: { capture?: boolean; coalesce?: string }) => void;
  /** New document (template, import): history starts over. */
  loadDesign: (next: Design) => void;
  undo: () => void;
  redo: () => void;
}

export const createDesignSlice: StateCreator<AppState, [], [], DesignSlice> = (set, get) => ({
  design: emptyDesign(),
  past: [],
  future: [],
  coalesceKey: null,
  coalesceAt: 0,
  setDesign: (next, opts = {}) => {
    const s = get();
    if (next === s.design) return;
    const capture = opts.capture ?? true;
    if (!capture) return set({ design: next });
    const now = Date.now();
    if (opts.coalesce && opts.coalesce === s.coalesceKey && now - s.coalesceAt < 1500) {
      return set({ design: next, coalesceAt: now, future: [] });
    }
    set({
      design: next,
      past: [...s.past, s.design].slice(-HISTORY_LIMIT),
      future: [],
      coalesceKey: opts.coalesce ?? null,
      coalesceAt: now,
    });
  },
  loadDesign: (next) => set({ design: next, past: [], future: [], coalesceKey: null, selected: [] }),
  undo: () => {
    const s = get();
    const prev = s.past[s.past.length - 1];
    if (!prev) return;
    set({ design: prev, past: s.past.slice(0, -1), future: [s.design, ...s.future], coalesceKey: null });
  },
  redo: () => {
    const s = get();
    const next = s.future[0];
    if (!next) return;
    set({ design: next, past: [...s.past, s.design], future: s.future.slice(1), coalesceKey: null });
  },
});
