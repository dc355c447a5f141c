import { beforeEach, describe, expect, it } from 'vitest';
import { deleteStoredDesign, duplicateStoredDesign, openStoredDesign, renameStoredDesign } from './designLibrary';
import { persist, readDesign, readIndex } from './persistence';
import { createAppStore, type AppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';

let store: AppStore;
let stop: () => void;
/** Two stored designs, "first" and "second", the second one open. */
beforeEach(() => {
  stop?.(); // flushes the previous test's pending write: before the clear
  localStorage.clear();
  store = createAppStore();
  stop = persist(store);
  store.getState().loadDesign({ ...dlxTtlRetry(), name: 'first' });
  store.getState().loadDesign({ ...dlxTtlRetry({ prefix: 'b.' }), name: 'second' });
});
const idOf = (name: string) => store.getState().designs.find((e) => e.name === name)!.id;
const names = () =>
  store
    .getState()
    .designs.map((e) => e.name)
    .sort();

describe('named designs', () => {
  it('lists every stored design', () => {
    expect(names()).toEqual(['first', 'second']);
  });

  it('opens a stored design, and undo goes back to the one open before', () => {
    expect(openStoredDesign(store, idOf('first'))).toMatchObject({ ok: true });
    expect(store.getState().design.name).toBe('first');
    store.getState().undo();
    expect(store.getState().design.name).toBe('second');
    expect(store.getState().docId).toBe(idOf('second'));
    store.getState().redo();
    expect(store.getState().design.name).toBe('first');
  });

  it('renames a design that is not open in storage, and the open one as an undoable edit', () => {
    renameStoredDesign(store, idOf('first'), '  primary ');
    expect(readDesign(idOf('primary'))?.name).toBe('primary');
    renameStoredDesign(store, store.getState().docId, 'secondary');
    expect(store.getState().design.name).toBe('secondary');
    store.getState().undo();
    expect(store.getState().design.name).toBe('second');
    expect(renameStoredDesign(store, idOf('primary'), ' ')).toEqual({
      ok: false,
      error: 'name: a design needs a name',
    });
  });

  it('duplicates under a new id without opening the copy', () => {
    const open = store.getState().docId;
    const r = duplicateStoredDesign(store, idOf('first'));
    expect(r.ok).toBe(true);
    expect(names()).toEqual(['first', 'first (copy)', 'second']);
    expect(store.getState().docId).toBe(open);
    expect(readDesign(idOf('first (copy)'))?.topology).toEqual(readDesign(idOf('first'))?.topology);
  });

  it('deletes a design that is not open, and refuses the open one', () => {
    expect(deleteStoredDesign(store, store.getState().docId).ok).toBe(false);
    const first = idOf('first');
    expect(deleteStoredDesign(store, first).ok).toBe(true);
    expect(names()).toEqual(['second']);
    expect(readDesign(first)).toBeNull();
    expect(readIndex().designs.map((e) => e.name)).toEqual(['second']);
  });

  it('opening a design that vanished from storage says so', () => {
    const r = openStoredDesign(store, 'd-missing');
    expect(r.ok).toBe(false);
    expect(store.getState().design.name).toBe('second');
  });
});
