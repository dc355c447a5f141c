import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import {
  deleteStoredDesign,
  duplicateStoredDesign,
  openKept,
  openStoredDesign,
  renameStoredDesign,
} from './designLibrary';
import { persist, type DesignStorage, type Persisting } from './persistence';
import { idbDesignStorage } from './idbDesignStorage';
import { createAppStore, type AppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';

let store: AppStore;
let storage: DesignStorage;
let kept: Persisting | undefined;
/** Two stored designs, "first" and "second", the second one open. */
beforeEach(async () => {
  await kept?.stop();
  storage = await idbDesignStorage(new IDBFactory(), null);
  store = createAppStore();
  kept = persist(store, storage);
  store.getState().loadDesign({ ...dlxTtlRetry(), name: 'first' });
  store.getState().loadDesign({ ...dlxTtlRetry({ prefix: 'b.' }), name: 'second' });
  await kept.settled();
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

  it('opens a stored design (its body read then), and undo goes back to the one open before', async () => {
    expect(await openStoredDesign(store, idOf('first'), storage)).toMatchObject({ ok: true });
    expect(store.getState().design.name).toBe('first');
    store.getState().undo();
    expect(store.getState().design.name).toBe('second');
    expect(store.getState().docId).toBe(idOf('second'));
    store.getState().redo();
    expect(store.getState().design.name).toBe('first');
  });

  it('renames a design that is not open in storage, and the open one as an undoable edit', async () => {
    await renameStoredDesign(store, idOf('first'), '  primary ', storage);
    expect((await storage.readDesign(idOf('primary')))?.name).toBe('primary');
    await renameStoredDesign(store, store.getState().docId, 'secondary', storage);
    expect(store.getState().design.name).toBe('secondary');
    store.getState().undo();
    expect(store.getState().design.name).toBe('second');
    expect(await renameStoredDesign(store, idOf('primary'), ' ', storage)).toEqual({
      ok: false,
      error: 'name: a design needs a name',
    });
  });

  it('duplicates under a new id without opening the copy', async () => {
    const open = store.getState().docId;
    const r = await duplicateStoredDesign(store, idOf('first'), storage);
    expect(r.ok).toBe(true);
    expect(names()).toEqual(['first', 'first (copy)', 'second']);
    expect(store.getState().docId).toBe(open);
    expect((await storage.readDesign(idOf('first (copy)')))?.topology).toEqual(
      (await storage.readDesign(idOf('first')))?.topology,
    );
  });

  it('deletes a design that is not open, and refuses the open one', async () => {
    expect((await deleteStoredDesign(store, store.getState().docId, storage)).ok).toBe(false);
    const first = idOf('first');
    expect((await deleteStoredDesign(store, first, storage)).ok).toBe(true);
    expect(names()).toEqual(['second']);
    expect(await storage.readDesign(first)).toBeNull();
    expect((await storage.readIndex()).designs.map((e) => e.name)).toEqual(['second']);
  });

  it('opening a design that vanished from storage says so', async () => {
    const r = await openStoredDesign(store, 'd-missing', storage);
    expect(r.ok).toBe(false);
    expect(store.getState().design.name).toBe('second');
  });

  it('keeps the broker a design came from: learnt with it open, kept across a visit, and with its copy', async () => {
    const second = idOf('second');
    store.getState().setBrokerVersion(second, '3.13.7');
    await kept!.settled();
    expect((await storage.readIndex()).designs.find((e) => e.id === second)?.brokerVersion).toBe('3.13.7');
    await openStoredDesign(store, idOf('first'));
    await kept!.settled();
    // the switch's write keeps it
    expect((await storage.readIndex()).designs.find((e) => e.id === second)?.brokerVersion).toBe('3.13.7');
    // the next visit: a new page's store opens it as main.tsx does
    const next = createAppStore();
    const index = await storage.readIndex();
    openKept(
      next,
      second,
      (await storage.readDesign(second))!,
      index.designs.find((e) => e.id === second),
      {
        history: false,
      },
    );
    expect(next.getState().brokerVersions[next.getState().docId]).toBe('3.13.7');
    const copy = await duplicateStoredDesign(store, second);
    expect(copy.ok && (await storage.readIndex()).designs.find((e) => e.id === copy.id)?.brokerVersion).toBe('3.13.7');
  });
});
