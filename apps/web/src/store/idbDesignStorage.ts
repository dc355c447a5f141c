/**
 * Designs in IndexedDB: bodies by id in `designs`, the index (the list My designs shows) in `meta`.
 * A write is one transaction (body and index entry together, so other tabs never see one without the
 * other), and it never blocks the page on a string of the whole design: localStorage's did, and a
 * 5,000-queue design's reload and each save held the page (issue 41). What localStorage held is moved
 * over on first open, and removed from it only once IndexedDB has it all.
 */
import type { Design } from '@retry-studio/topology-core/model';
import {
  emptyIndex,
  indexFrom,
  withDesign,
  withoutDesign,
  type DesignIndex,
  type DesignStorage,
  type SaveOptions,
} from './designIndex';
import {
  designKey,
  INDEX_KEY,
  LEGACY_KEY,
  readLocalDesign,
  readLocalIndex,
  storedDesignFrom,
  type KeyValueStorage,
} from './localDesignStorage';

export const DB_NAME = 'retry-studio';
const DB_VERSION = 1;
const DESIGNS = 'designs';
const META = 'meta';
const INDEX = 'index';

const request = <T>(r: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });

/** the transaction's end; a failure is handled (never an unhandled rejection when a step before it threw) */
const committed = (tx: IDBTransaction): Promise<void> => {
  const p = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  p.catch(() => undefined);
  return p;
};

/** connections closed for another tab's upgrade or deletion: nothing is read or written through them any more */
const closedForOthers = new WeakSet<IDBDatabase>();

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = factory.open(DB_NAME, DB_VERSION);
    r.onupgradeneeded = () => {
      const db = r.result;
      if (!db.objectStoreNames.contains(DESIGNS)) db.createObjectStore(DESIGNS);
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
    };
    r.onsuccess = () => {
      // another tab upgrading or deleting the database: let it (this tab then keeps its designs in memory)
      r.result.onversionchange = () => {
        r.result.close();
        closedForOthers.add(r.result);
      };
      resolve(r.result);
    };
    r.onerror = () => reject(r.error ?? new Error('IndexedDB refused'));
    r.onblocked = () => reject(new Error('IndexedDB is held by an older tab'));
  });
}

/** Moves what localStorage holds into IndexedDB, once (while IndexedDB has no index yet); localStorage's keys go after. */
async function moveFromLocal(db: IDBDatabase, local: KeyValueStorage): Promise<void> {
  const tx = db.transaction([DESIGNS, META], 'readwrite');
  const done = committed(tx);
  const kept = indexFrom(await request(tx.objectStore(META).get(INDEX)));
  if (kept) return done;
  const { index, legacy } = readLocalIndex(local);
  const moved: string[] = [];
  const designs = tx.objectStore(DESIGNS);
  for (const e of index.designs) {
    const design = legacy?.id === e.id ? legacy.design : readLocalDesign(e.id, local);
    if (!design) continue;
    designs.put(design, e.id);
    moved.push(e.id);
  }
  const listed = new Set(moved);
  tx.objectStore(META).put({ ...index, designs: index.designs.filter((e) => listed.has(e.id)) }, INDEX);
  await done;
  try {
    for (const id of moved) local.removeItem(designKey(id));
    local.removeItem(INDEX_KEY);
    if (legacy) local.removeItem(LEGACY_KEY);
  } catch {
    // left behind in localStorage: IndexedDB has them, and is read from now on
  }
}

/** Opens the designs' database (moving localStorage's designs in on first use); throws where IndexedDB is refused. */
export async function idbDesignStorage(
  factory: IDBFactory = indexedDB,
  local: KeyValueStorage | null = typeof localStorage !== 'undefined' ? localStorage : null,
): Promise<DesignStorage> {
  const db = await openDb(factory);
  if (local) await moveFromLocal(db, local);
  /** the index last read or written: what a write answers when it could not be made */
  let known = emptyIndex();
  const readIndexIn = async (tx: IDBTransaction) =>
    (known = indexFrom(await request(tx.objectStore(META).get(INDEX))) ?? emptyIndex());
  const readIndex = async () => {
    if (closedForOthers.has(db)) return known;
    try {
      return await readIndexIn(db.transaction(META, 'readonly'));
    } catch {
      return known;
    }
  };
  /** one read-modify-write of body and index; the index as it was when the write failed */
  const change = async (f: (tx: IDBTransaction, index: DesignIndex) => DesignIndex): Promise<DesignIndex> => {
    if (closedForOthers.has(db)) return known;
    try {
      const tx = db.transaction([DESIGNS, META], 'readwrite');
      const done = committed(tx);
      const next = f(tx, await readIndexIn(tx));
      tx.objectStore(META).put(next, INDEX);
      await done;
      return (known = next);
    } catch {
      // storage full or refused: the design stays in memory
      return readIndex();
    }
  };
  return {
    readIndex,
    async readDesign(id: string): Promise<Design | null> {
      if (closedForOthers.has(db)) return null;
      try {
        return storedDesignFrom(await request(db.transaction(DESIGNS, 'readonly').objectStore(DESIGNS).get(id)));
      } catch {
        return null;
      }
    },
    saveDesign: (id: string, design: Design, opts: SaveOptions = {}) =>
      change((tx, index) => {
        tx.objectStore(DESIGNS).put(design, id);
        return withDesign(index, id, design, opts);
      }),
    removeDesign: (id: string) =>
      change((tx, index) => {
        tx.objectStore(DESIGNS).delete(id);
        return withoutDesign(index, id);
      }),
  };
}
