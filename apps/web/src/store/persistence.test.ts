import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { persist } from './persistence';
import { idbDesignStorage } from './idbDesignStorage';
import { createAppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';
import { emptyDesign } from '../model/emptyDesign';

const fresh = () => idbDesignStorage(new IDBFactory(), null);

describe('persist', () => {
  it('saves the open design under its id, debounced, and names it in the index', async () => {
    const storage = await fresh();
    const store = createAppStore();
    const kept = persist(store, storage);
    store.getState().loadDesign(dlxTtlRetry());
    const id = store.getState().docId;
    await kept.settled();
    expect((await storage.readDesign(id))?.name).toBe('DLX + TTL wait queue');
    store.getState().setDesign({ ...store.getState().design, name: 'renamed' });
    await kept.settled();
    expect((await storage.readDesign(id))?.name).toBe('DLX + TTL wait queue');
    await new Promise((r) => setTimeout(r, 300));
    await kept.settled();
    expect((await storage.readDesign(id))?.name).toBe('renamed');
    const index = await storage.readIndex();
    expect(index.currentId).toBe(id);
    expect(index.designs.map((e) => e.name)).toEqual(['renamed']);
    expect(store.getState().designs.map((e) => e.name)).toEqual(['renamed']);
    await kept.stop();
  });

  it('replacing keeps the open design stored; an untouched template is dropped when replaced', async () => {
    const storage = await fresh();
    const store = createAppStore();
    const kept = persist(store, storage);
    store.getState().loadDesign(dlxTtlRetry()); // imported work
    const mine = store.getState().docId;
    store.getState().loadDesign({ ...emptyDesign('template A'), topology: dlxTtlRetry().topology }, { pristine: true });
    const a = store.getState().docId;
    store.getState().loadDesign({ ...emptyDesign('template B'), topology: dlxTtlRetry().topology }, { pristine: true });
    await kept.settled();
    expect(await storage.readDesign(mine)).not.toBeNull();
    expect(await storage.readDesign(a)).toBeNull();
    expect(
      store
        .getState()
        .designs.map((e) => e.name)
        .sort(),
    ).toEqual(['DLX + TTL wait queue', 'template B']);
    await kept.stop();
  });

  it('an edit pending when the page is left is written (stop flushes it)', async () => {
    const storage = await fresh();
    const store = createAppStore();
    const kept = persist(store, storage);
    store.getState().loadDesign(dlxTtlRetry());
    store.getState().setDesign({ ...store.getState().design, name: 'last words' });
    await kept.stop();
    expect((await storage.readDesign(store.getState().docId))?.name).toBe('last words');
  });

  it('lists a design at once when it opens, before its write is done (two vhosts opened together)', async () => {
    const storage = await fresh();
    const store = createAppStore();
    const kept = persist(store, storage);
    await kept.settled();
    store.getState().loadDesign({ ...dlxTtlRetry(), name: 'vhost /' });
    store.getState().loadDesign({ ...dlxTtlRetry(), name: 'vhost test' });
    expect(
      store
        .getState()
        .designs.map((e) => e.name)
        .sort(),
    ).toEqual(['vhost /', 'vhost test']);
    await kept.settled();
    expect((await storage.readIndex()).designs.map((e) => e.name).sort()).toEqual(['vhost /', 'vhost test']);
    await kept.stop();
  });
});
