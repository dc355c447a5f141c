/** The design survives reloads: saved to localStorage (debounced), loaded through the core's parser. */
import { parseDesign, type Design } from '@retry-studio/topology-core';
import type { AppStore } from './store';

export const STORAGE_KEY = 'retry-studio.design.v1';

export function loadSaved(): Design | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const r = parseDesign(JSON.parse(raw));
    return r.ok ? r.design : (JSON.parse(raw) as Design); // keep an invalid work in progress: the inspector shows what is wrong
  } catch {
    return null;
  }
}

export function persist(store: AppStore): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return store.subscribe((s, prev) => {
    if (s.design === prev.design) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(store.getState().design));
      } catch {
        /* storage full or disabled: nothing to do */
      }
    }, 250);
  });
}
