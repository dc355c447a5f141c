import type { StateCreator } from 'zustand';
import type { AppState } from './store';
import type { DesignEntry } from './persistence';

export interface LibrarySlice {
  /** the named designs kept in this browser, newest first (mirrored from storage by persistence) */
  designs: DesignEntry[];
}

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = () => ({
  designs: [],
});
