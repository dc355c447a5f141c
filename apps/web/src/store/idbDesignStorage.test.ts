import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { idbDesignStorage } from './idbDesignStorage';
import { INDEX_KEY, LEGACY_KEY, designKey, localDesignStorage } from './localDesignStorage';
import { dlxTtlRetry } from '../fixtures/designs';

beforeEach(() => localStorage.clear());

/** what a visitor had in localStorage: two named designs (the second open), saved by the storage before IndexedDB */
async function keptInLocalStorage() {
  const local = localDesignStorage();
  await local.saveDesign('d1', { ...dlxTtlRetry(), name: 'one' }, { touched: true });
  await local.saveDesign('d2', { ...dlxTtlRetry({ prefix: 'b.' }), name: 'two' }, { touched: true, current: true });
  return local.readIndex();
}

describe('designs in IndexedDB', () => {
  it('moves every design localStorage holds on first open, losing nothing, and clears localStorage after', async () => {
    const before = await keptInLocalStorage();
    const s = await idbDesignStorage(new IDBFactory(), localStorage);
    expect(await s.readIndex()).toEqual(before);
    expect((await s.readDesign('d1'))?.name).toBe('one');
    expect((await s.readDesign('d2'))?.topology).toEqual(dlxTtlRetry({ prefix: 'b.' }).topology);
    expect([INDEX_KEY, designKey('d1'), designKey('d2')].map((k) => localStorage.getItem(k))).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('moves a version-1 single design too', async () => {
    localStorage.setItem(LEGACY_KEY, JSON.stringify({ ...dlxTtlRetry(), name: 'from version 1' }));
    const s = await idbDesignStorage(new IDBFactory(), localStorage);
    const index = await s.readIndex();
    expect(index.designs.map((e) => e.name)).toEqual(['from version 1']);
    expect((await s.readDesign(index.currentId!))?.name).toBe('from version 1');
    expect(localStorage.getItem(LEGACY_KEY)).toBeNull();
  });

  it('moves only once: what IndexedDB keeps wins over what localStorage gets later', async () => {
    const factory = new IDBFactory();
    await keptInLocalStorage();
    const first = await idbDesignStorage(factory, localStorage);
    await first.removeDesign('d1');
    // an old tab writes localStorage again
    await keptInLocalStorage();
    const again = await idbDesignStorage(factory, localStorage);
    expect((await again.readIndex()).designs.map((e) => e.name)).toEqual(['two']);
  });

  it('lists designs from the index alone; writes body and entry together; removes both', async () => {
    const s = await idbDesignStorage(new IDBFactory(), null);
    const after = await s.saveDesign('x', { ...dlxTtlRetry(), name: 'kept' }, { pristine: true, current: true });
    expect(after).toMatchObject({ currentId: 'x', designs: [{ id: 'x', name: 'kept', pristine: true }] });
    expect(await s.readIndex()).toEqual(after);
    const gone = await s.removeDesign('x');
    expect(gone).toMatchObject({ currentId: null, designs: [] });
    expect(await s.readDesign('x')).toBeNull();
  });

  it('lets another tab delete the database: this one keeps its designs in memory, nothing thrown', async () => {
    const factory = new IDBFactory();
    const s = await idbDesignStorage(factory, null);
    const kept = await s.saveDesign('x', { ...dlxTtlRetry(), name: 'kept' }, { current: true });
    await new Promise<void>((resolve) => {
      const r = factory.deleteDatabase('retry-studio');
      r.onsuccess = () => resolve();
    });
    expect(await s.saveDesign('y', { ...dlxTtlRetry(), name: 'after' })).toEqual(kept);
    expect(await s.readIndex()).toEqual(kept);
    expect(await s.readDesign('x')).toBeNull();
  });
});
