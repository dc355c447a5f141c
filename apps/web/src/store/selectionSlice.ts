import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export interface SelectionSlice {
  /** selected node and edge ids (its own field: components never scan nodes for it) */
  selected: string[];
  select: (ids: string[]) => void;
}

export const createSelectionSlice: StateCreator<AppState, [], [], SelectionSlice> = (set) => ({
  selected: [],
  // a node or edge picked: the side panel inspects it, even while a message's path is highlighted
  select: (ids) => set(ids.length ? { selected: ids, messagePane: false } : { selected: ids }),
});
