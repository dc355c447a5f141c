/**
 * The named designs kept in this browser: open, rename, duplicate, delete. The open design is
 * edited through the store (its changes are undoable and saved by persistence); the others are
 * changed in storage directly. A design's body is read only when it is opened or copied.
 */
import { newDesignId } from './designId';
import type { Design } from '@retry-studio/topology-core/model';
import type { DesignEntry, DesignStorage } from './designIndex';
import { keptDesigns, publishIndex, writesSettled } from './persistence';
import type { AppStore } from './store';

export type LibraryResult = { ok: true; id: string } | { ok: false; error: string };

const gone = (id: string): LibraryResult => ({
  ok: false,
  error: `design ${id} is not in this browser's storage any more`,
});

/**
 * Opens a design read from storage with what its entry says (untouched, the broker it came from);
 * `history: false` when nothing was open before it (a visit's start).
 */
export function openKept(
  store: AppStore,
  id: string,
  design: Design,
  entry: DesignEntry | undefined,
  opts: { history?: boolean } = {},
): void {
  // before it opens: the switch's write keeps the version with it
  if (entry?.brokerVersion) store.getState().setBrokerVersion(id, entry.brokerVersion);
  store.getState().loadDesign(design, { docId: id, pristine: entry?.pristine ?? false, ...opts });
}

/** Opens a stored design (one undo step back to the one open now). */
export async function openStoredDesign(
  store: AppStore,
  id: string,
  storage: DesignStorage = keptDesigns(),
): Promise<LibraryResult> {
  if (store.getState().docId === id) return { ok: true, id };
  await writesSettled();
  const design = await storage.readDesign(id);
  if (!design) return gone(id);
  const entry = (await storage.readIndex()).designs.find((e) => e.id === id);
  openKept(store, id, design, entry);
  return { ok: true, id };
}

export async function renameStoredDesign(
  store: AppStore,
  id: string,
  name: string,
  storage: DesignStorage = keptDesigns(),
): Promise<LibraryResult> {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: 'name: a design needs a name' };
  const s = store.getState();
  if (s.docId === id) {
    // the open design: an undoable edit, saved like any other
    s.setDesign({ ...s.design, name: trimmed });
    return { ok: true, id };
  }
  const design = await storage.readDesign(id);
  if (!design) return gone(id);
  publishIndex(store, await storage.saveDesign(id, { ...design, name: trimmed }, { touched: true }));
  return { ok: true, id };
}

/** A copy under a new id, named "… (copy)"; the open design stays open. */
export async function duplicateStoredDesign(
  store: AppStore,
  id: string,
  storage: DesignStorage = keptDesigns(),
): Promise<LibraryResult> {
  const s = store.getState();
  const design = s.docId === id ? s.design : await storage.readDesign(id);
  if (!design) return gone(id);
  const copyId = newDesignId();
  const brokerVersion =
    s.brokerVersions[id] ?? (await storage.readIndex()).designs.find((e) => e.id === id)?.brokerVersion;
  const copy = { ...design, name: `${design.name} (copy)` };
  publishIndex(
    store,
    await storage.saveDesign(copyId, copy, { touched: true, ...(brokerVersion ? { brokerVersion } : {}) }),
  );
  return { ok: true, id: copyId };
}

/** Deletes a stored design that is not open (open another one first). */
export async function deleteStoredDesign(
  store: AppStore,
  id: string,
  storage: DesignStorage = keptDesigns(),
): Promise<LibraryResult> {
  if (store.getState().docId === id)
    return { ok: false, error: 'this design is open: open another one before deleting it' };
  publishIndex(store, await storage.removeDesign(id));
  return { ok: true, id };
}
