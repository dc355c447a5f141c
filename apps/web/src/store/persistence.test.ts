import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INDEX_KEY, LEGACY_KEY, STORAGE_VERSION, designKey, persist, readDesign, readIndex } from './persistence';
import { createAppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';
import { emptyDesign } from '../model/emptyDesign';

beforeEach(() => {
  localStorage.clear();
  vi.useRealTimers();
});

describe('stored shape, version 2', () => {
  it('migrates the version-1 single design into a named design, open, and drops the old key only then', () => {
    const old = { ...dlxTtlRetry(), name: 'my retry loop' };
    localStorage.setItem(LEGACY_KEY, JSON.stringify(old));
    const index = readIndex();
    expect(index.version).toBe(STORAGE_VERSION);
    expect(index.designs.map((e) => e.name)).toEqual(['my retry loop']);
    expect(index.currentId).toBe(index.designs[0]!.id);
    expect(readDesign(index.currentId!)).toEqual(old);
    expect(localStorage.getItem(LEGACY_KEY)).toBeNull();
    // read again: the same index, not a second migration
    expect(readIndex()).toEqual(index);
  });

  it('keeps an invalid version-1 work in progress as it is (the inspector shows what is wrong)', () => {
    const wip = {
      ...dlxTtlRetry(),
      topology: {
        ...dlxTtlRetry().topology,
        queues: [{ name: '', durable: true, arguments: { 'x-message-ttl': -5 } }],
      },
    };
    localStorage.setItem(LEGACY_KEY, JSON.stringify(wip));
    const index = readIndex();
    expect(readDesign(index.currentId!)?.topology.queues[0]?.arguments?.['x-message-ttl']).toBe(-5);
  });

  it('leaves an unreadable version-1 value alone and starts empty', () => {
    localStorage.setItem(LEGACY_KEY, '{not json');
    expect(readIndex().designs).toEqual([]);
    expect(localStorage.getItem(LEGACY_KEY)).toBe('{not json');
  });

  it('keeps the old key when the new one cannot be written (storage full)', () => {
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
    readIndex(full);
    expect(localStorage.getItem(LEGACY_KEY)).not.toBeNull();
  });

  it('lists the stored designs again when the index itself is unreadable', () => {
    localStorage.setItem(designKey('d1'), JSON.stringify({ ...dlxTtlRetry(), name: 'one' }));
    localStorage.setItem(designKey('d2'), JSON.stringify({ ...dlxTtlRetry(), name: 'two' }));
    localStorage.setItem(INDEX_KEY, '{broken');
    expect(
      readIndex()
        .designs.map((e) => e.name)
        .sort(),
    ).toEqual(['one', 'two']);
  });
});

describe('persist', () => {
  it('saves the open design under its id, debounced, and names it in the index', async () => {
    vi.useFakeTimers();
    const store = createAppStore();
    const stop = persist(store);
    store.getState().loadDesign(dlxTtlRetry());
    const id = store.getState().docId;
    expect(readDesign(id)?.name).toBe('DLX + TTL wait queue');
    store.getState().setDesign({ ...store.getState().design, name: 'renamed' });
    expect(readDesign(id)?.name).toBe('DLX + TTL wait queue');
    vi.advanceTimersByTime(300);
    expect(readDesign(id)?.name).toBe('renamed');
    const index = JSON.parse(localStorage.getItem(INDEX_KEY)!);
    expect(index.currentId).toBe(id);
    expect(index.designs.map((e: { name: string }) => e.name)).toEqual(['renamed']);
    expect(store.getState().designs.map((e) => e.name)).toEqual(['renamed']);
    stop();
  });

  it('replacing keeps the open design stored; an untouched template is dropped when replaced', () => {
    const store = createAppStore();
    const stop = persist(store);
    store.getState().loadDesign(dlxTtlRetry()); // imported work
    const mine = store.getState().docId;
    store.getState().loadDesign({ ...emptyDesign('template A'), topology: dlxTtlRetry().topology }, { pristine: true });
    const a = store.getState().docId;
    store.getState().loadDesign({ ...emptyDesign('template B'), topology: dlxTtlRetry().topology }, { pristine: true });
    expect(localStorage.getItem(designKey(mine))).not.toBeNull();
    expect(localStorage.getItem(designKey(a))).toBeNull();
    expect(
      store
        .getState()
        .designs.map((e) => e.name)
        .sort(),
    ).toEqual(['DLX + TTL wait queue', 'template B']);
    stop();
  });
});
