import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { persist } from './persistence';
import { idbDesignStorage } from './idbDesignStorage';
import { createAppStore } from './store';
import type { DesignStorage } from './designIndex';
import type { KeyValueStorage } from './localDesignStorage';
import { replayUnsaved, UNSAVED_PREFIX } from './unsavedWrites';
import { dlxTtlRetry } from '../fixtures/designs';
import { emptyDesign } from '../model/emptyDesign';

/** a localStorage of the test's own */
function memoryLocal(): KeyValueStorage & { keys(): string[] } {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
    keys: () => [...m.keys()],
  };
}

/** the storage as a page sees it until the page goes: after `die()` no write it asks for is made */
function pageStorage(storage: DesignStorage): DesignStorage & { die(): void } {
  let dead = false;
  const never = new Promise<never>(() => undefined);
  return {
    readIndex: () => storage.readIndex(),
    readDesign: (id) => storage.readDesign(id),
    saveDesign: (...a) => (dead ? never : storage.saveDesign(...a)),
    removeDesign: (id) => (dead ? never : storage.removeDesign(id)),
    die: () => void (dead = true),
  };
}

const template = () => ({ ...emptyDesign('Chained TTL tiers'), topology: dlxTtlRetry().topology });

/** a kept design, a template opened over it, undone: the page is left at once */
async function undoThenLeave(local: KeyValueStorage) {
  const storage = await idbDesignStorage(new IDBFactory(), null);
  const page = pageStorage(storage);
  const store = createAppStore();
  const kept = persist(store, page, { local, unsavedKey: `${UNSAVED_PREFIX}tab` });
  store.getState().loadDesign({ ...dlxTtlRetry(), name: 'my retry loop' });
  const mine = store.getState().docId;
  await kept.settled();
  store.getState().loadDesign(template(), { pristine: true });
  const replacing = store.getState().docId;
  await kept.settled();
  store.getState().undo();
  store.getState().setDesign({ ...store.getState().design, name: 'my retry loop, renamed' });
  kept.leave();
  page.die();
  return { storage, mine, replacing };
}

describe('writes a left page had not made', () => {
  it('are made on the next visit: the design open when the page was left opens again, an edit typed just before is kept', async () => {
    const local = memoryLocal();
    const { storage, mine, replacing } = await undoThenLeave(local);
    // what the page had written when it went: the template still open
    expect((await storage.readIndex()).currentId).toBe(replacing);
    expect(await replayUnsaved(storage, local)).toBe(3);
    const index = await storage.readIndex();
    expect(index.currentId).toBe(mine);
    expect(index.designs.map((e) => e.name)).toEqual(['my retry loop, renamed']);
    expect((await storage.readDesign(mine))?.name).toBe('my retry loop, renamed');
    expect(local.keys()).toEqual([]);
  });

  it('never write over a design changed after the page was left (another tab edited it)', async () => {
    const local = memoryLocal();
    const { storage, mine } = await undoThenLeave(local);
    await new Promise((r) => setTimeout(r, 5));
    await storage.saveDesign(mine, { ...dlxTtlRetry(), name: 'edited in another tab' }, { touched: true });
    // the template is still dropped; both writes of the edited design are not made
    expect(await replayUnsaved(storage, local)).toBe(1);
    expect((await storage.readDesign(mine))?.name).toBe('edited in another tab');
    expect(local.keys()).toEqual([]);
  });

  it('are forgotten once the page, back from the cache, has made them', async () => {
    const local = memoryLocal();
    const storage = await idbDesignStorage(new IDBFactory(), null);
    const store = createAppStore();
    const kept = persist(store, storage, { local, unsavedKey: `${UNSAVED_PREFIX}tab` });
    store.getState().loadDesign(dlxTtlRetry());
    kept.leave();
    expect(local.keys()).toEqual([`${UNSAVED_PREFIX}tab`]);
    await kept.settled();
    expect(local.keys()).toEqual([]);
    await kept.stop();
  });

  it('a broken record is dropped without stopping the visit', async () => {
    const local = memoryLocal();
    local.setItem(`${UNSAVED_PREFIX}x`, '{not json');
    local.setItem(`${UNSAVED_PREFIX}y`, JSON.stringify({ at: 1, writes: [{ kind: 'save', id: 'd1' }, null] }));
    const storage = await idbDesignStorage(new IDBFactory(), null);
    expect(await replayUnsaved(storage, local)).toBe(0);
    expect(local.keys()).toEqual([]);
  });
});
