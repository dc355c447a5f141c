/**
 * What the app keeps in the browser, read and cleared from a flow: designs live in IndexedDB
 * (`retry-studio`: bodies in `designs`, the index in `meta`), the UI's preferences in localStorage.
 * Page scripts are strings: tsx's keepNames would inject a helper the page does not have.
 */
import type { Page } from 'playwright-core';

/** Nothing kept: localStorage emptied and the designs' database deleted. */
export async function clearKept(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    localStorage.clear();
    const r = indexedDB.deleteDatabase('retry-studio');
    r.onsuccess = r.onerror = r.onblocked = () => resolve(null);
  })`);
}

/** a value of the designs' database (`meta` 'index', or `designs` by id), undefined when there is none */
function dbGet<T>(page: Page, store: 'meta' | 'designs', key: string): Promise<T | undefined> {
  return page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('retry-studio');
    open.onerror = () => resolve(undefined);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(${JSON.stringify(store)})) return resolve(undefined);
      const g = db.transaction(${JSON.stringify(store)}, 'readonly').objectStore(${JSON.stringify(store)}).get(${JSON.stringify(key)});
      g.onsuccess = () => { db.close(); resolve(g.result); };
      g.onerror = () => { db.close(); resolve(undefined); };
    };
  })`) as Promise<T | undefined>;
}

export interface KeptIndex {
  currentId: string | null;
  designs: Array<{ id: string; name: string; updatedAt: number; pristine?: boolean }>;
}

export const keptIndex = (page: Page): Promise<KeptIndex | undefined> => dbGet<KeptIndex>(page, 'meta', 'index');

export const keptDesign = <T = { name: string }>(page: Page, id: string): Promise<T | undefined> =>
  dbGet<T>(page, 'designs', id);

/** the open design as kept */
export async function keptCurrent<T = { name: string }>(page: Page): Promise<T | undefined> {
  const index = await keptIndex(page);
  return index?.currentId ? keptDesign<T>(page, index.currentId) : undefined;
}
