/**
 * Named designs survive reloads: kept in IndexedDB (idbDesignStorage.ts; localStorage where a browser
 * refuses it), a body per design and an index beside them, so an edit rewrites only the open design
 * and My designs lists them without reading their bodies (a design's body is read when it opens).
 */
import type { Design } from '@retry-studio/topology-core/model';
import { withDesign, withoutDesign, type DesignIndex, type DesignStorage } from './designIndex';
import { idbDesignStorage } from './idbDesignStorage';
import { localDesignStorage } from './localDesignStorage';
import type { AppStore } from './store';

export type { DesignEntry, DesignIndex, DesignStorage } from './designIndex';

/** IndexedDB, else localStorage (a browser or mode that refuses IndexedDB) */
export async function openDesignStorage(): Promise<DesignStorage> {
  try {
    if (typeof indexedDB === 'undefined') throw new Error('no IndexedDB');
    return await idbDesignStorage();
  } catch {
    return localDesignStorage();
  }
}

let kept: DesignStorage | null = null;
let writes: Promise<void> = Promise.resolve();

/** resolves once the writes persist() has been asked for so far are done (read a stored design after them) */
export const writesSettled = (): Promise<void> => writes;

/** the storage persist() keeps the designs in (My designs reads and changes it) */
export function keptDesigns(): DesignStorage {
  if (!kept) throw new Error('the designs are not open yet (persist() first)');
  return kept;
}

/** the list last shown in My designs (stored, or as the writes on their way will leave it) */
let published: DesignIndex | null = null;

/** Mirrors the stored index into the store (`designs`, newest first) for the designs menu. */
export function publishIndex(store: AppStore, index: DesignIndex): void {
  published = index;
  store.setState({ designs: [...index.designs].sort((a, b) => b.updatedAt - a.updatedAt) });
}

export interface Persisting {
  /** writes what is pending now, and stops */
  stop(): Promise<void>;
  /** resolves once every write asked for so far is done (tests, the designs menu) */
  settled(): Promise<void>;
}

/**
 * Keeps storage in step with the store: the open design is written (debounced) under its id; switching
 * designs writes both, and drops the design left when it was an untouched template. Writes run one after
 * another, each a task of its own after the change that asked for it (an import's first frame is drawn first).
 */
export function persist(store: AppStore, storage: DesignStorage): Persisting {
  kept = storage;
  let chain: Promise<void> = Promise.resolve();
  /** writes asked for and not done yet: My designs shows what they will leave meanwhile */
  let inFlight = 0;
  published = null;
  /** the list as it will be once the writes are done, shown at once (two vhosts opened together are both listed) */
  const expect = (change: (i: DesignIndex) => DesignIndex) => {
    if (published) publishIndex(store, change(published));
  };
  const enqueue = (f: () => Promise<DesignIndex>) => {
    inFlight++;
    chain = chain
      .then(() => new Promise<void>((r) => setTimeout(r, 0)))
      .then(f)
      .then(
        (index) => {
          // the stored list once nothing else is on its way (it may hold another tab's changes too)
          if (inFlight === 1) publishIndex(store, index);
        },
        () => undefined,
      )
      .finally(() => inFlight--);
    writes = chain;
  };
  enqueue(() => storage.readIndex());
  let pending: { docId: string; design: Design; pristine: boolean } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const p = pending;
    pending = null;
    enqueue(() => storage.saveDesign(p.docId, p.design, { pristine: p.pristine, touched: true }));
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.docId !== prev.docId) {
      flush();
      const { docId, design, docPristine } = s;
      expect((i) => withDesign(prev.docPristine ? withoutDesign(i, prev.docId) : i, docId, design, { current: true }));
      if (prev.docPristine) enqueue(() => storage.removeDesign(prev.docId));
      enqueue(() => storage.saveDesign(docId, design, { pristine: docPristine, current: true }));
      return;
    }
    if (s.design === prev.design && s.docPristine === prev.docPristine) return;
    if (s.design.name !== prev.design.name) expect((i) => withDesign(i, s.docId, s.design, { touched: true }));
    pending = { docId: s.docId, design: s.design, pristine: s.docPristine };
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, 250);
  });
  const onHide = () => flush();
  if (typeof window !== 'undefined') window.addEventListener('pagehide', onHide);
  return {
    async stop() {
      flush();
      unsubscribe();
      if (typeof window !== 'undefined') window.removeEventListener('pagehide', onHide);
      await chain;
    },
    settled: () => chain,
  };
}
