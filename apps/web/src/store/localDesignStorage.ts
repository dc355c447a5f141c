/**
 * Designs in localStorage: where they were kept before IndexedDB (read once, to move them over:
 * idbDesignStorage.ts), and where they stay when a browser refuses IndexedDB. An index (versioned)
 * and one key per design. Version 1 kept a single design under one key; it is read as a named design.
 */
import { parseDesign, type Design } from '@retry-studio/topology-core/model';
import { newDesignId } from './designId';
import {
  emptyIndex,
  indexFrom,
  withDesign,
  withoutDesign,
  type DesignIndex,
  type DesignStorage,
  type SaveOptions,
} from './designIndex';

/** version 1: the one design, as JSON */
export const LEGACY_KEY = 'retry-studio.design.v1';
export const INDEX_KEY = 'retry-studio.designs';
export const designKey = (id: string) => `retry-studio.designs.${id}`;

export type KeyValueStorage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** A stored design, through the core's parser; an invalid work in progress is kept as it is (the inspector says what is wrong). */
export function storedDesignFrom(json: unknown): Design | null {
  if (!json || typeof json !== 'object') return null;
  const r = parseDesign(json);
  return r.ok ? r.design : (json as Design);
}

function parsed(raw: string | null): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function safeGet(storage: KeyValueStorage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: KeyValueStorage, key: string, value: string): boolean {
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false; // storage full or disabled: the design stays in memory
  }
}

export function readLocalDesign(id: string, storage: KeyValueStorage): Design | null {
  return storedDesignFrom(parsed(safeGet(storage, designKey(id))));
}

/**
 * What localStorage holds: its index (listed again from the design keys when unreadable) and, from
 * version 1, the single design with a new id (`legacy`; its key is removed once it is written elsewhere).
 */
export function readLocalIndex(storage: KeyValueStorage): {
  index: DesignIndex;
  legacy?: { id: string; design: Design };
} {
  const raw = safeGet(storage, INDEX_KEY);
  const kept = indexFrom(parsed(raw));
  if (kept) return { index: kept };
  const index = raw ? recoverIndex(storage) : emptyIndex();
  const design = storedDesignFrom(parsed(safeGet(storage, LEGACY_KEY)));
  if (!design) return { index };
  const id = newDesignId();
  return { index: withDesign(index, id, design, { current: true }), legacy: { id, design } };
}

/** An unreadable index: the designs are still there under their own keys, list them again. */
function recoverIndex(storage: KeyValueStorage): DesignIndex {
  let index = emptyIndex();
  const prefix = designKey('');
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    const design = readLocalDesign(id, storage);
    if (design) index = withDesign(index, id, design);
  }
  return { ...index, designs: index.designs.map((e) => ({ ...e, updatedAt: 0 })) };
}

/** Designs kept in localStorage (a browser without IndexedDB). */
export function localDesignStorage(storage: KeyValueStorage = localStorage): DesignStorage {
  const readIndex = (): DesignIndex => {
    const { index, legacy } = readLocalIndex(storage);
    if (
      legacy &&
      safeSet(storage, designKey(legacy.id), JSON.stringify(legacy.design)) &&
      safeSet(storage, INDEX_KEY, JSON.stringify(index))
    )
      storage.removeItem(LEGACY_KEY);
    return index;
  };
  return {
    readIndex: async () => readIndex(),
    readDesign: async (id) => readLocalDesign(id, storage),
    async saveDesign(id: string, design: Design, opts: SaveOptions = {}) {
      const index = readIndex();
      if (!safeSet(storage, designKey(id), JSON.stringify(design))) return index;
      const next = withDesign(index, id, design, opts);
      safeSet(storage, INDEX_KEY, JSON.stringify(next));
      return next;
    },
    async removeDesign(id: string) {
      storage.removeItem(designKey(id));
      const next = withoutDesign(readIndex(), id);
      safeSet(storage, INDEX_KEY, JSON.stringify(next));
      return next;
    },
  };
}
