/**
 * The named designs kept in this browser: open, rename, duplicate, delete. The open design is
 * edited through the store (its changes are undoable and saved by persistence); the others are
 * changed in storage directly.
 */
import { newDesignId } from './designId';
import { publishIndex, readDesign, readIndex, removeDesign, writeDesign } from './persistence';
import type { AppStore } from './store';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export type LibraryResult = { ok: true; id: string } | { ok: false; error: string };

/** Opens a stored design (one undo step back to the one open now). */
export function openStoredDesign(store: AppStore, id: string, storage: Storage = localStorage): LibraryResult {
  if (store.getState().docId === id) return { ok: true, id };
  const design = readDesign(id, storage);
  if (!design) return { ok: false, error: `design ${id} is not in this browser's storage any more` };
  const entry = readIndex(storage).designs.find((e) => e.id === id);
  store.getState().loadDesign(design, { docId: id, pristine: entry?.pristine ?? false });
  return { ok: true, id };
}

export function renameStoredDesign(
  store: AppStore,
  id: string,
  name: string,
  storage: Storage = localStorage,
): LibraryResult {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: 'name: a design needs a name' };
  const s = store.getState();
  if (s.docId === id) {
    // the open design: an undoable edit, saved like any other
    s.setDesign({ ...s.design, name: trimmed });
    return { ok: true, id };
  }
  const design = readDesign(id, storage);
  if (!design) return { ok: false, error: `design ${id} is not in this browser's storage any more` };
  publishIndex(store, writeDesign(readIndex(storage), id, { ...design, name: trimmed }, { touched: true }, storage));
  return { ok: true, id };
}

/** A copy under a new id, named "… (copy)"; the open design stays open. */
export function duplicateStoredDesign(store: AppStore, id: string, storage: Storage = localStorage): LibraryResult {
  const s = store.getState();
  const design = s.docId === id ? s.design : readDesign(id, storage);
  if (!design) return { ok: false, error: `design ${id} is not in this browser's storage any more` };
  const copyId = newDesignId();
  publishIndex(
    store,
    writeDesign(readIndex(storage), copyId, { ...design, name: `${design.name} (copy)` }, { touched: true }, storage),
  );
  return { ok: true, id: copyId };
}

/** Deletes a stored design that is not open (open another one first). */
export function deleteStoredDesign(store: AppStore, id: string, storage: Storage = localStorage): LibraryResult {
  if (store.getState().docId === id)
    return { ok: false, error: 'this design is open: open another one before deleting it' };
  publishIndex(store, removeDesign(readIndex(storage), id, storage));
  return { ok: true, id };
}
