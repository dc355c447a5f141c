/**
 * Issue 41 (item 4): scaffolded actors folded, so they stop setting the opening zoom. A real definitions
 * file (alphagov-publishing: 12 queues, 11 publishers the import assumes) opens with no publisher node:
 * each exchange carries a tab counting the stand-ins that publish into it, its inspector lists them (one
 * click to each), a simulation's tokens start on the exchange, and a publisher the user edits is theirs,
 * drawn as a node of its own. At 1280x800 and 1440x900. Name starts with "browser-finish:".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { blankStart, designName, openFile, SIZES } from '../lib/steps.js';
import { ROOT } from '../lib/server.js';
import { readability } from '../lib/readability.js';

const FILE = 'alphagov-publishing-rendered';

export const assumedActorsFlow: Flow = {
  name: "browser-finish: a real file's assumed publishers folded into their exchanges (tab, inspector, tokens), one edited drawn again",
  async run({ page, url, shot }) {
    const text = readFileSync(join(ROOT, 'apps/server/src/cli/corpus', `${FILE}.json`), 'utf8');
    for (const size of SIZES) {
      await blankStart(page, url, size);
      await openFile(page, { name: `${FILE}.json`, text });
      await waitFor('the file open', async () => (await designName(page)) === FILE, 20_000);
      await page.waitForSelector('[data-testid=assumed-publishers]');
      await page.waitForTimeout(600);
      assert(
        (await page.locator('[data-testid=node-publisher]').count()) === 0,
        `${size.w}: no publisher node for the import's stand-ins`,
      );
      const tabs = await page
        .locator('[data-testid=assumed-publishers]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
      assert(
        tabs.reduce((a, b) => a + b, 0) === 11 && tabs.includes(10),
        `${size.w}: the 11 stand-ins counted on their exchanges (${tabs.join(', ')})`,
      );
      const r = await readability(page);
      assert(r.minNamePx >= 9, `${size.w}: names at 9 px and more (${r.small.join(', ')})`);
      await shot(`${size.w}-opened`);

      // the exchange's inspector lists them; one click opens one's own form
      await page.click('.react-flow__node[data-id="exchange:published_documents"]');
      const listed = await page.locator('[data-testid=assumed-publisher]').count();
      assert(listed === 10, `${size.w}: the inspector lists the exchange's 10 stand-ins (${listed})`);
      await page.locator('[data-testid=assumed-publisher]').first().click();
      await page.waitForSelector('[data-testid=assumed-publisher-note]');
      await shot(`${size.w}-inspector`);

      // a simulation's tokens start on the exchange the stand-in is folded into
      await page.fill('[data-testid=sim-count]', '1');
      await page.click('[data-testid=sim-run]');
      await page.waitForSelector('[data-testid=timeline-lane]');
      const starts = (await page.evaluate(
        `(window.__overlay?.player?.plans?.sim?.tracks ?? []).map((t) => t.stops[0] && t.stops[0].node)`,
      )) as string[];
      assert(
        starts.length > 0 && starts.every((s) => s.startsWith('exchange:')),
        `${size.w}: tokens start on an exchange (${starts.slice(0, 3).join(', ')})`,
      );

      // edited, the stand-in is the user's: drawn as a node of its own, left of its exchange
      await page.click('[data-testid=tab-inspect]');
      await page.fill('[data-testid=field-routing-key]', 'x.mine');
      await waitFor(
        'the edited publisher drawn',
        async () => (await page.locator('[data-testid=node-publisher]').count()) === 1,
      );
      const mine = await page.locator('[data-testid=node-publisher]').boundingBox();
      const exchange = await page.locator('.react-flow__node[data-id="exchange:published_documents"]').boundingBox();
      assert(mine && exchange && mine.x + mine.width <= exchange.x, `${size.w}: drawn left of its exchange`);
      await shot(`${size.w}-edited`);
    }
  },
};
