/**
 * The writes to the designs' storage that a page left before they were done. A write to IndexedDB is
 * asynchronous: an undo, an import or an edit just before a reload or a closed tab was lost with the page
 * (the next visit opened another design, or none). When the page is left, what is still on its way is
 * written to localStorage at once (synchronously, under a key of this tab's own), and the next visit
 * carries it out before it reads the index. A write is not carried out over a design changed after the
 * page was left (another tab's later edit wins).
 */
import type { Design } from '@retry-studio/topology-core/model';
import type { DesignIndex, DesignStorage, SaveOptions } from './designIndex';
import { storedDesignFrom, type KeyValueStorage } from './localDesignStorage';

/** One step of persist(): a design's body and entry written, or a design dropped. */
export type StorageWrite =
  { kind: 'save'; id: string; design: Design; opts: SaveOptions } | { kind: 'remove'; id: string };

export const UNSAVED_PREFIX = 'retry-studio.unsaved.';

interface UnsavedRecord {
  /** ms since the epoch when the page was left */
  at: number;
  writes: readonly StorageWrite[];
}

export function applyWrite(storage: DesignStorage, w: StorageWrite): Promise<DesignIndex> {
  return w.kind === 'save' ? storage.saveDesign(w.id, w.design, w.opts) : storage.removeDesign(w.id);
}

/** Keeps the writes not done yet under `key`; false when localStorage refused them (full, or disabled). */
export function keepUnsaved(local: KeyValueStorage, key: string, writes: readonly StorageWrite[], at: number): boolean {
  try {
    local.setItem(key, JSON.stringify({ at, writes } satisfies UnsavedRecord));
    return true;
  } catch {
    return false;
  }
}

export function forgetUnsaved(local: KeyValueStorage, key: string): void {
  try {
    local.removeItem(key);
  } catch {
    // nothing to do: a later visit finds every write already made, and makes it again harmlessly
  }
}

function unsavedKeys(local: KeyValueStorage): string[] {
  const keys: string[] = [];
  try {
    for (let i = 0; i < local.length; i++) {
      const k = local.key(i);
      if (k?.startsWith(UNSAVED_PREFIX)) keys.push(k);
    }
  } catch {
    // localStorage refused: nothing was kept there either
  }
  return keys;
}

function recordFrom(raw: string | null): UnsavedRecord | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<UnsavedRecord>;
    if (typeof v.at !== 'number' || !Array.isArray(v.writes)) return null;
    const writes = v.writes.flatMap((w): StorageWrite[] => {
      if (!w || typeof w.id !== 'string') return [];
      if (w.kind === 'remove') return [{ kind: 'remove', id: w.id }];
      const design = w.kind === 'save' ? storedDesignFrom(w.design) : null;
      return design ? [{ kind: 'save', id: w.id, design, opts: w.opts ?? {} }] : [];
    });
    return { at: v.at, writes };
  } catch {
    return null;
  }
}

/**
 * Carries out what pages left unwritten, oldest page first, then forgets it. A write whose design was
 * changed after that page was left is skipped. Returns how many writes were made.
 */
export async function replayUnsaved(storage: DesignStorage, local: KeyValueStorage | null): Promise<number> {
  if (!local) return 0;
  const records = unsavedKeys(local)
    .map((key) => ({ key, record: recordFrom(local.getItem(key)) }))
    .sort((a, b) => (a.record?.at ?? 0) - (b.record?.at ?? 0));
  let made = 0;
  for (const { key, record } of records) {
    if (record) {
      let index = await storage.readIndex();
      for (const w of record.writes) {
        const stored = index.designs.find((e) => e.id === w.id);
        if (stored && stored.updatedAt > record.at) continue;
        index = await applyWrite(storage, w);
        made++;
      }
    }
    forgetUnsaved(local, key);
  }
  return made;
}
