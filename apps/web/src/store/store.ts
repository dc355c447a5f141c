/** One store built from slices (zustand slices pattern): design+history, selection, ui, the broker context, simulation, named designs, the version results belong to. */
import { create } from 'zustand';
import { createDesignSlice, type DesignSlice } from './designSlice';
import { createSelectionSlice, type SelectionSlice } from './selectionSlice';
import { createUiSlice, type UiSlice } from './uiSlice';
import { createBrokerSlice, type BrokerSlice } from './brokerSlice';
import { createSimSlice, type SimSlice } from './simSlice';
import { createLibrarySlice, type LibrarySlice } from './librarySlice';
import { createResultsVersionSlice, trackDesignVersion, type ResultsVersionSlice } from './resultsVersion';

export type AppState = DesignSlice &
  SelectionSlice &
  UiSlice &
  BrokerSlice &
  SimSlice &
  LibrarySlice &
  ResultsVersionSlice;

export const createAppStore = () => {
  const store = create<AppState>()((...a) => ({
    ...createDesignSlice(...a),
    ...createSelectionSlice(...a),
    ...createUiSlice(...a),
    ...createBrokerSlice(...a),
    ...createSimSlice(...a),
    ...createLibrarySlice(...a),
    ...createResultsVersionSlice(...a),
  }));
  trackDesignVersion(store);
  return store;
};

export const useApp = createAppStore();
export type AppStore = typeof useApp;
