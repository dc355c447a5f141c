/**
 * Issue 30's smaller journeys (names start with "web-flows:"): a file with several vhosts asks
 * which to open and says what it left out; a pasted import is named from its content. Each flow
 * runs at 1280x800 and 1440x900 (screenshots of both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { ROOT } from '../lib/server.js';

const SIZES = [
  { w: 1280, h: 800 },
  { w: 1440, h: 900 },
] as const;

const corpus = (name: string) => readFileSync(join(ROOT, 'apps', 'server', 'src', 'cli', 'corpus', name));

async function openFile(page: Page, name: string): Promise<void> {
  await page.click('[data-testid=open-toggle]');
  await page.setInputFiles('[data-testid=open-menu] [data-testid=import-file]', { name, mimeType: 'application/json', buffer: corpus(name) });
}

const designName = (page: Page) => page.inputValue('[data-testid=design-name]');

export const multiVhostImportFlow: Flow = {
  // a file with several vhosts asks which, names each with its counts and notes; an empty "/" is said; a paste is named from its content
  name: 'web-flows: open several vhosts',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await page.setViewportSize({ width: s.w, height: s.h });
      await page.goto(url);
      await page.evaluate(() => localStorage.clear());
      await page.goto(url);
      await page.waitForSelector('[data-testid=app]');

      // two vhosts with objects: asked, each named with its counts and its notes
      await openFile(page, 'localega-tools-two-vhosts.json');
      await page.waitForSelector('[data-testid=vhost-choice]');
      const rows = page.locator('[data-testid=vhost-choice-row]');
      assert((await rows.count()) === 2, 'both vhosts listed');
      const root = await rows.nth(0).innerText();
      const test = await rows.nth(1).innerText();
      assert(/"\/" \(\d+ exchanges?, \d+ queues/.test(root) && /"test" \(1 exchange, 4 queues, 4 bindings\)/.test(test), `each vhost with its counts: ${root} | ${test}`);
      assert((await page.locator('[data-testid=vhost-choice-note]').allInnerTexts()).some((n) => n.startsWith('not imported:')), 'the CLI\'s "not imported" notes shown');
      await shot(`${s.w}-vhost-choice`);
      await rows.nth(1).locator('[data-testid=vhost-choice-open]').click();
      await waitFor('the "test" vhost open', async () => (await page.locator('[data-testid=node-queue]').count()) === 4);
      assert((await designName(page)) === 'localega-tools-two-vhosts (test)', `named after the file and vhost: ${await designName(page)}`);
      const notes = await page.locator('[data-testid=import-notes]').innerText();
      assert(notes.includes('not imported: 1 global parameter'), `the import notes: ${notes}`);
      await shot(`${s.w}-vhost-opened`);

      // each as its own design: both kept in My designs
      await openFile(page, 'localega-tools-two-vhosts.json');
      await page.waitForSelector('[data-testid=vhost-choice]');
      await page.click('[data-testid=vhost-choice-each]');
      await waitFor('the last vhost open', async () => (await designName(page)) === 'localega-tools-two-vhosts (test)');
      await page.click('[data-testid=designs-toggle]');
      const kept = await page.locator('[data-testid=design-row]').allInnerTexts();
      assert(kept.some((t) => t.includes('localega-tools-two-vhosts (/)')) && kept.filter((t) => t.includes('localega-tools-two-vhosts (test)')).length >= 2, `each vhost kept: ${kept.join(' | ')}`);
      await page.keyboard.press('Escape');

      // "/" named but empty: the vhost with objects opens, and the empty one is said
      await openFile(page, 'localega-cega-test-vhost.json');
      await waitFor('the "test" vhost open', async () => (await page.locator('[data-testid=node-queue]').count()) === 4);
      const said = await page.locator('[data-testid=import-notes]').innerText();
      assert(said.includes('"/" holds no objects'), `the empty "/" is said: ${said}`);
      await shot(`${s.w}-empty-root`);

      // a paste: named from its content (the first own exchange), not "imported"
      await page.click('[data-testid=open-toggle]');
      await page.fill('[data-testid=open-menu] [data-testid=import-text]', JSON.stringify({ exchanges: [{ name: 'shop.retry', type: 'direct' }], queues: [{ name: 'shop.work', arguments: { 'x-dead-letter-exchange': 'shop.retry' } }], bindings: [] }));
      await page.click('[data-testid=open-menu] [data-testid=import-apply]');
      await waitFor('the pasted design', async () => (await designName(page)) === 'shop.retry');
    }
  },
};

export const webFlows: Flow[] = [multiVhostImportFlow];
