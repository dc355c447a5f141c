import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export type View = 'gallery' | 'designer';
export type SideTab = 'inspect' | 'lint' | 'export' | 'broker' | 'operate';
export type BottomTab = 'timeline' | 'budget' | 'trace' | 'deadLetters';

export interface UiSlice {
  view: View;
  sideTab: SideTab;
  bottomTab: BottomTab;
  toast: { text: string; tone: 'info' | 'error' } | null;
  /** bumps when something asks the canvas to fit the view */
  fitRequest: number;
  /** broker URL for deploy and trace (empty: the server's default) */
  brokerUrl: string;
  /** name prefix the design is deployed under */
  deployPrefix: string;
  setBroker: (patch: { brokerUrl?: string; deployPrefix?: string }) => void;
  setView: (v: View) => void;
  setSideTab: (t: SideTab) => void;
  setBottomTab: (t: BottomTab) => void;
  notify: (text: string, tone?: 'info' | 'error') => void;
  requestFit: () => void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  view: 'designer',
  sideTab: 'inspect',
  bottomTab: 'timeline',
  toast: null,
  fitRequest: 0,
  brokerUrl: 'amqp://guest:guest@127.0.0.1:5672/',
  deployPrefix: 'studio.',
  setBroker: (patch) => set(patch),
  setView: (view) => set({ view }),
  setSideTab: (sideTab) => set({ sideTab }),
  setBottomTab: (bottomTab) => set({ bottomTab }),
  notify: (text, tone = 'info') => set({ toast: { text, tone } }),
  requestFit: () => set((s) => ({ fitRequest: s.fitRequest + 1 })),
});
