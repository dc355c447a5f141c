/**
 * Named designs survive reloads: an index (versioned) and one localStorage key per design, so
 * an edit rewrites only the open design. Version 1 kept a single design under one key; it is
 * migrated into a named design on first read, never dropped.
 */
import { parseDesign, type Design } from '@retry-studio/topology-core/model';
import { newDesignId } from './designId';
import type { AppStore } from './store';

export const STORAGE_VERSION = 2;
/** version 1: the one design, as JSON */
export const LEGACY_KEY = 'retry-studio.design.v1';
export const INDEX_KEY = 'retry-studio.designs';
export const designKey = (id: string) => `retry-studio.designs.${id}`;

export interface DesignEntry {
  id: string;
  name: string;
  /** ms since the epoch of the last change to the design's content */
  updatedAt: number;
  /** an untouched template or blank canvas: dropped when something replaces it */
  pristine?: boolean;
}

export interface DesignIndex {
  version: typeof STORAGE_VERSION;
  /** the design open when the page was left */
  currentId: string | null;
  designs: DesignEntry[];
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const emptyIndex = (): DesignIndex => ({ version: STORAGE_VERSION, currentId: null, designs: [] });

/** Reads the index, migrating a version-1 single design into it (the old key goes only once the new ones are written). */
export function readIndex(storage: Storage = localStorage): DesignIndex {
  const raw = safeGet(storage, INDEX_KEY);
  if (raw) {
    const index = parseIndex(raw);
    if (index) return index;
  }
  const index = raw ? recoverIndex(storage) : emptyIndex();
  const legacy = safeGet(storage, LEGACY_KEY);
  const design = legacy ? parseStoredDesign(legacy) : null;
  if (!design) return index;
  const id = newDesignId();
  index.designs.push({ id, name: design.name, updatedAt: Date.now() });
  index.currentId = id;
  if (safeSet(storage, designKey(id), JSON.stringify(design)) && safeSet(storage, INDEX_KEY, JSON.stringify(index)))
    storage.removeItem(LEGACY_KEY);
  return index;
}

/** An unreadable index: the designs are still there under their own keys, list them again. */
function recoverIndex(storage: Storage): DesignIndex {
  const index = emptyIndex();
  const prefix = designKey('');
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    const design = readDesign(id, storage);
    if (design) index.designs.push({ id, name: design.name, updatedAt: 0 });
  }
  return index;
}

function parseIndex(raw: string): DesignIndex | null {
  try {
    const v = JSON.parse(raw) as Partial<DesignIndex>;
    if (v.version !== STORAGE_VERSION || !Array.isArray(v.designs)) return null;
    const designs = v.designs.filter(
      (e): e is DesignEntry => !!e && typeof e.id === 'string' && typeof e.name === 'string',
    );
    return { version: STORAGE_VERSION, currentId: typeof v.currentId === 'string' ? v.currentId : null, designs };
  } catch {
    return null;
  }
}

/** A stored design, through the core's parser; an invalid work in progress is kept as it is (the inspector says what is wrong). */
function parseStoredDesign(raw: string): Design | null {
  try {
    const json: unknown = JSON.parse(raw);
    if (!json || typeof json !== 'object') return null;
    const r = parseDesign(json);
    return r.ok ? r.design : (json as Design);
  } catch {
    return null;
  }
}

export function readDesign(id: string, storage: Storage = localStorage): Design | null {
  const raw = safeGet(storage, designKey(id));
  return raw ? parseStoredDesign(raw) : null;
}

export function writeIndex(index: DesignIndex, storage: Storage = localStorage): boolean {
  return safeSet(storage, INDEX_KEY, JSON.stringify(index));
}

/** Writes a design and its index entry (created when missing). */
export function writeDesign(
  index: DesignIndex,
  id: string,
  design: Design,
  opts: { pristine?: boolean; touched?: boolean } = {},
  storage: Storage = localStorage,
): DesignIndex {
  if (!safeSet(storage, designKey(id), JSON.stringify(design))) return index;
  const old = index.designs.find((e) => e.id === id);
  const entry: DesignEntry = {
    id,
    name: design.name,
    updatedAt: !old || opts.touched ? Date.now() : old.updatedAt,
    ...(opts.pristine ? { pristine: true } : {}),
  };
  const next = {
    ...index,
    designs: old ? index.designs.map((e) => (e.id === id ? entry : e)) : [entry, ...index.designs],
  };
  writeIndex(next, storage);
  return next;
}

export function removeDesign(index: DesignIndex, id: string, storage: Storage = localStorage): DesignIndex {
  storage.removeItem(designKey(id));
  const next = {
    ...index,
    designs: index.designs.filter((e) => e.id !== id),
    currentId: index.currentId === id ? null : index.currentId,
  };
  writeIndex(next, storage);
  return next;
}

function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: Storage, key: string, value: string): boolean {
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false; // storage full or disabled: the design stays in memory
  }
}

/** Mirrors the stored index into the store (`designs`, newest first) for the designs menu. */
export function publishIndex(store: AppStore, index: DesignIndex): void {
  store.setState({ designs: [...index.designs].sort((a, b) => b.updatedAt - a.updatedAt) });
}

/**
 * Keeps storage in step with the store: the open design is written (debounced) under its id;
 * switching designs writes at once, and drops the design left when it was an untouched template.
 * The index is read fresh for every write: the designs menu changes it too.
 */
export function persist(store: AppStore, storage: Storage = localStorage): () => void {
  publishIndex(store, readIndex(storage));
  let pending: { docId: string; design: Design; pristine: boolean } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const p = pending;
    pending = null;
    publishIndex(
      store,
      writeDesign(readIndex(storage), p.docId, p.design, { pristine: p.pristine, touched: true }, storage),
    );
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.docId !== prev.docId) {
      flush();
      let index = readIndex(storage);
      if (prev.docPristine) index = removeDesign(index, prev.docId, storage);
      publishIndex(
        store,
        writeDesign({ ...index, currentId: s.docId }, s.docId, s.design, { pristine: s.docPristine }, storage),
      );
      return;
    }
    if (s.design === prev.design && s.docPristine === prev.docPristine) return;
    pending = { docId: s.docId, design: s.design, pristine: s.docPristine };
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, 250);
  });
  const onHide = () => flush();
  if (typeof window !== 'undefined') window.addEventListener('pagehide', onHide);
  return () => {
    flush();
    unsubscribe();
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', onHide);
  };
}
