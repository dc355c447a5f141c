/** One store built from slices (zustand slices pattern): design+history, selection, ui, simulation, named designs. */
import { create } from 'zustand';
import { createDesignSlice, type DesignSlice } from './designSlice';
import { createSelectionSlice, type SelectionSlice } from './selectionSlice';
import { createUiSlice, type UiSlice } from './uiSlice';
import { createSimSlice, type SimSlice } from './simSlice';
import { createLibrarySlice, type LibrarySlice } from './librarySlice';

export type AppState = DesignSlice & SelectionSlice & UiSlice & SimSlice & LibrarySlice;

export const createAppStore = () =>
  create<AppState>()((...a) => ({
    ...createDesignSlice(...a),
    ...createSelectionSlice(...a),
    ...createUiSlice(...a),
    ...createSimSlice(...a),
    ...createLibrarySlice(...a),
  }));

export const useApp = createAppStore();
export type AppStore = typeof useApp;
