import { beforeEach, describe, expect, it } from 'vitest';
import { INDEX_KEY, LEGACY_KEY, designKey, localDesignStorage } from './localDesignStorage';
import { STORAGE_VERSION } from './designIndex';
import { dlxTtlRetry } from '../fixtures/designs';

beforeEach(() => localStorage.clear());

describe('designs in localStorage (before IndexedDB, and where a browser refuses it)', () => {
  it('reads the version-1 single design as a named design, open, and drops the old key only once written', async () => {
    const old = { ...dlxTtlRetry(), name: 'my retry loop' };
    localStorage.setItem(LEGACY_KEY, JSON.stringify(old));
    const s = localDesignStorage();
    const index = await s.readIndex();
    expect(index.version).toBe(STORAGE_VERSION);
    expect(index.designs.map((e) => e.name)).toEqual(['my retry loop']);
    expect(index.currentId).toBe(index.designs[0]!.id);
    expect(await s.readDesign(index.currentId!)).toEqual(old);
    expect(localStorage.getItem(LEGACY_KEY)).toBeNull();
    // read again: the same index, not a second migration
    expect(await s.readIndex()).toEqual(index);
  });

  it('keeps an invalid version-1 work in progress as it is (the inspector shows what is wrong)', async () => {
    const wip = {
      ...dlxTtlRetry(),
      topology: {
        ...dlxTtlRetry().topology,
        queues: [{ name: '', durable: true, arguments: { 'x-message-ttl': -5 } }],
      },
    };
    localStorage.setItem(LEGACY_KEY, JSON.stringify(wip));
    const s = localDesignStorage();
    const index = await s.readIndex();
    expect((await s.readDesign(index.currentId!))?.topology.queues[0]?.arguments?.['x-message-ttl']).toBe(-5);
  });

  it('leaves an unreadable version-1 value alone and starts empty', async () => {
    localStorage.setItem(LEGACY_KEY, '{not json');
    expect((await localDesignStorage().readIndex()).designs).toEqual([]);
    expect(localStorage.getItem(LEGACY_KEY)).toBe('{not json');
  });

  it('keeps the old key when the new one cannot be written (storage full)', async () => {
    localStorage.setItem(LEGACY_KEY, JSON.stringify(dlxTtlRetry()));
    const full = {
      getItem: (k: string) => localStorage.getItem(k),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: (k: string) => localStorage.removeItem(k),
      key: (i: number) => localStorage.key(i),
      length: localStorage.length,
    };
    await localDesignStorage(full).readIndex();
    expect(localStorage.getItem(LEGACY_KEY)).not.toBeNull();
  });

  it('lists the stored designs again when the index itself is unreadable', async () => {
    localStorage.setItem(designKey('d1'), JSON.stringify({ ...dlxTtlRetry(), name: 'one' }));
    localStorage.setItem(designKey('d2'), JSON.stringify({ ...dlxTtlRetry(), name: 'two' }));
    localStorage.setItem(INDEX_KEY, '{broken');
    const index = await localDesignStorage().readIndex();
    expect(index.designs.map((e) => e.name).sort()).toEqual(['one', 'two']);
  });
});
