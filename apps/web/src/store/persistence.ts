/**
 * Named designs survive reloads: kept in IndexedDB (idbDesignStorage.ts; localStorage where a browser
 * refuses it), a body per design and an index beside them, so an edit rewrites only the open design
 * and My designs lists them without reading their bodies (a design's body is read when it opens).
 */
import type { Design } from '@retry-studio/topology-core/model';
import { withDesign, withoutDesign, type DesignIndex, type DesignStorage } from './designIndex';
import { idbDesignStorage } from './idbDesignStorage';
import { localDesignStorage, type KeyValueStorage } from './localDesignStorage';
import { newDesignId } from './designId';
import {
  applyWrite,
  forgetUnsaved,
  keepUnsaved,
  replayUnsaved,
  UNSAVED_PREFIX,
  type StorageWrite,
} from './unsavedWrites';
import type { AppState, AppStore } from './store';

export type { DesignEntry, DesignIndex, DesignStorage } from './designIndex';

/**
 * IndexedDB, else localStorage (a browser or mode that refuses IndexedDB), with the writes a page left
 * unwritten made first (unsavedWrites.ts): the index read next says which design was open last.
 */
export async function openDesignStorage(): Promise<DesignStorage> {
  const storage = await openAnyStorage();
  await replayUnsaved(storage, typeof localStorage !== 'undefined' ? localStorage : null).catch(() => 0);
  return storage;
}

async function openAnyStorage(): Promise<DesignStorage> {
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
  /** the page is being left: what is not written yet is kept in localStorage for the next visit (unsavedWrites.ts) */
  leave(): void;
}

export interface PersistOptions {
  /** where the writes a left page had not made are kept (localStorage in a page) */
  local?: KeyValueStorage | null;
  /** the key this tab keeps them under */
  unsavedKey?: string;
}

const versionOf = (s: AppState, docId: string): { brokerVersion?: string } => {
  const v = s.brokerVersions[docId];
  return v ? { brokerVersion: v } : {};
};

/**
 * Keeps storage in step with the store: the open design is written (debounced) under its id; switching
 * designs writes both, and drops the design left when it was an untouched template. Writes run one after
 * another, each a task of its own after the change that asked for it (an import's first frame is drawn first).
 */
export function persist(store: AppStore, storage: DesignStorage, opts: PersistOptions = {}): Persisting {
  kept = storage;
  const local = opts.local !== undefined ? opts.local : typeof localStorage !== 'undefined' ? localStorage : null;
  const unsavedKey = opts.unsavedKey ?? `${UNSAVED_PREFIX}${newDesignId()}`;
  let chain: Promise<void> = Promise.resolve();
  /** writes asked for and not done yet (My designs shows what they will leave; a left page keeps them) */
  const unwritten: StorageWrite[] = [];
  /** kept in localStorage when the page was left, and to forget once done (the page came back from the cache) */
  let keptUnsaved = false;
  /** steps asked for and not done yet, the first read of the index among them */
  let inFlight = 0;
  published = null;
  /** the list as it will be once the writes are done, shown at once (two vhosts opened together are both listed) */
  const expect = (change: (i: DesignIndex) => DesignIndex) => {
    if (published) publishIndex(store, change(published));
  };
  const run = (f: () => Promise<DesignIndex>, w?: StorageWrite) => {
    if (w) unwritten.push(w);
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
      .finally(() => {
        inFlight--;
        if (w) unwritten.splice(unwritten.indexOf(w), 1);
        if (unwritten.length === 0 && keptUnsaved && local) {
          forgetUnsaved(local, unsavedKey);
          keptUnsaved = false;
        }
      });
    writes = chain;
  };
  const enqueue = (w: StorageWrite) => run(() => applyWrite(storage, w), w);
  run(() => storage.readIndex());
  let pending: { docId: string; design: Design; pristine: boolean } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const p = pending;
    pending = null;
    enqueue({ kind: 'save', id: p.docId, design: p.design, opts: { pristine: p.pristine, touched: true } });
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.docId !== prev.docId) {
      flush();
      const { docId, design, docPristine } = s;
      const opts = { pristine: docPristine, current: true, ...versionOf(s, docId) };
      expect((i) => withDesign(prev.docPristine ? withoutDesign(i, prev.docId) : i, docId, design, opts));
      if (prev.docPristine) enqueue({ kind: 'remove', id: prev.docId });
      enqueue({ kind: 'save', id: docId, design, opts });
      return;
    }
    // the broker it came from, learnt with it open (a probe): kept with it
    if (s.brokerVersions[s.docId] !== prev.brokerVersions[s.docId]) {
      flush();
      const opts = { pristine: s.docPristine, ...versionOf(s, s.docId) };
      enqueue({ kind: 'save', id: s.docId, design: s.design, opts });
      return;
    }
    if (s.design === prev.design && s.docPristine === prev.docPristine) return;
    if (s.design.name !== prev.design.name) expect((i) => withDesign(i, s.docId, s.design, { touched: true }));
    pending = { docId: s.docId, design: s.design, pristine: s.docPristine };
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, 250);
  });
  const leave = () => {
    flush();
    if (local && unwritten.length > 0) keptUnsaved = keepUnsaved(local, unsavedKey, unwritten, Date.now());
  };
  // a hidden page may never run again (a closed tab, a phone's discarded page): start the writes now
  const onHidden = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  const listening = typeof window !== 'undefined';
  if (listening) {
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onHidden);
  }
  return {
    async stop() {
      flush();
      unsubscribe();
      if (listening) {
        window.removeEventListener('pagehide', leave);
        document.removeEventListener('visibilitychange', onHidden);
      }
      await chain;
    },
    settled: () => chain,
    leave,
  };
}
