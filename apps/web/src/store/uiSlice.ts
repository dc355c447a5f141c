import type { StateCreator } from 'zustand';
import type { AppState } from './store';
import type { Design } from '@retry-studio/topology-core/model';
import type { RehearseFields } from '../rehearse/rehearseFields';
import { readUiPrefs, writeUiPrefs } from './uiPrefs';

/** the bottom panel's height bounds, px */
export const BOTTOM_MIN = 120;
export const BOTTOM_DEFAULT = 290;

export type View = 'gallery' | 'designer';
export type SideTab = 'inspect' | 'lint' | 'export' | 'broker' | 'operate';
export type BottomTab = 'timeline' | 'budget' | 'rehearse' | 'tune' | 'trace' | 'deadLetters';

/** a rehearsal asked for from elsewhere (the Tune panel's "Compare"): the Rehearse tab fills its form and runs it */
export interface RehearseRequest {
  readonly seq: number;
  readonly fields: Partial<RehearseFields>;
  readonly compare: readonly { readonly label: string; readonly design: Design }[];
}

export interface ImportNotesShown {
  readonly design: string;
  readonly lines: readonly string[];
  /** what the lines are, when not the import's notes (an application's configuration: the CLI's summary) */
  readonly heading?: string;
}

export interface UiSlice {
  view: View;
  sideTab: SideTab;
  bottomTab: BottomTab;
  toast: { text: string; tone: 'info' | 'error' } | null;
  /** the broker version each design came from (its file's `rabbitmq_version`, or the broker probed with it open), by design id: the upgrade check's source */
  brokerVersions: Readonly<Record<string, string>>;
  setBrokerVersion: (docId: string, version: string) => void;
  /** what the last file import left out or changed (the CLI prints the same lines), until dismissed */
  importNotes: ImportNotesShown | null;
  setImportNotes: (notes: ImportNotesShown | null) => void;
  /** bumps when something asks the canvas to fit the view */
  fitRequest: number;
  /** the last fit asked for everything in view, however small (the stress bench), not the readable opening view */
  fitAll: boolean;
  setView: (v: View) => void;
  setSideTab: (t: SideTab) => void;
  setBottomTab: (t: BottomTab) => void;
  rehearseRequest: RehearseRequest | null;
  requestRehearsal: (r: Omit<RehearseRequest, 'seq'>) => void;
  notify: (text: string, tone?: 'info' | 'error') => void;
  requestFit: (all?: boolean) => void;
  /** height of the simulation panel under the canvas (resizable, remembered) */
  bottomHeight: number;
  setBottomHeight: (px: number) => void;
}

/**
 * Rehearse and Tune show a form, a verdict, charts and tables: while one of them is open the panel
 * is at least this share of the window (496 px at 1280x800), so Run and the results are in view.
 */
export const TALL_TAB_SHARE = 0.62;
export const panelHeightFor = (tab: BottomTab, height: number, windowHeight: number): number =>
  tab === 'rehearse' || tab === 'tune' ? Math.max(height, Math.round(windowHeight * TALL_TAB_SHARE)) : height;

/** the results panel's first height: 40% of the window (320 px at 1280x800), so a table reads without scrolling */
const defaultBottomHeight = () =>
  typeof window === 'undefined' ? BOTTOM_DEFAULT : Math.max(BOTTOM_DEFAULT, Math.round(window.innerHeight * 0.4));

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  view: 'designer',
  sideTab: 'inspect',
  bottomTab: 'timeline',
  toast: null,
  importNotes: null,
  brokerVersions: {},
  setBrokerVersion: (docId, version) => set((s) => ({ brokerVersions: { ...s.brokerVersions, [docId]: version } })),
  setImportNotes: (importNotes) => set({ importNotes }),
  fitRequest: 0,
  fitAll: false,
  setView: (view) => set({ view }),
  setSideTab: (sideTab) => set({ sideTab }),
  setBottomTab: (bottomTab) => set({ bottomTab }),
  rehearseRequest: null,
  requestRehearsal: (r) =>
    set((s) => ({ rehearseRequest: { ...r, seq: (s.rehearseRequest?.seq ?? 0) + 1 }, bottomTab: 'rehearse' })),
  notify: (text, tone = 'info') => set({ toast: { text, tone } }),
  requestFit: (all = false) => set((s) => ({ fitRequest: s.fitRequest + 1, fitAll: all })),
  bottomHeight: Math.max(BOTTOM_MIN, readUiPrefs().bottomHeight ?? defaultBottomHeight()),
  setBottomHeight: (px) => {
    const bottomHeight = Math.max(BOTTOM_MIN, Math.round(px));
    set({ bottomHeight });
    writeUiPrefs({ bottomHeight });
  },
});
