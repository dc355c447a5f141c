/**
 * Issue 30 (points 2 and 3): the canvas reads at any zoom and stays usable at thousands of nodes.
 * Each flow runs at 1440x900 and 1280x800. Names start with "canvas:".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { openFile } from '../lib/steps.js';
import { ROOT } from '../lib/server.js';
import { teamServicesDefinitions } from '../lib/bigDefinitions.js';
import { nodesOutOfView, readability } from '../lib/readability.js';

const SIZES = [
  [1440, 900],
  [1280, 800],
] as const;

/** a real definitions file from the CLI's corpus (GOV.UK publishing's RabbitMQ schema, rendered) */
const realFile = () => readFileSync(join(ROOT, 'apps/server/src/cli/corpus/alphagov-publishing-rendered.json'), 'utf8');

/** a file opened through the Export tab's import */
const importFile = (page: Page, name: string, text: string) =>
  openFile(page, { name, text }, 'import-file', 'export-tab');

/** Node faces whose name does not show whole (cut, or spilling out of its box), and settings neither shown nor counted in "+N". */
async function faceProblems(page: Page): Promise<{ nodes: number; cut: string[]; hidden: string[]; more: number }> {
  return page.evaluate(() => {
    const nodes = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node'));
    const cut: string[] = [];
    const hidden: string[] = [];
    let more = 0;
    for (const n of nodes) {
      const box = n.getBoundingClientRect();
      const name = n.querySelector<HTMLElement>('[data-testid=node-name]');
      if (!name) continue;
      const r = name.getBoundingClientRect();
      const whole =
        name.textContent === name.title &&
        r.bottom <= box.bottom + 1 &&
        r.right <= box.right + 1 &&
        r.left >= box.left - 1;
      if (!whole) cut.push(name.title);
      // the chip row the current text size shows: its chips plus the "+N" chip account for every setting
      const rows = Array.from(n.querySelectorAll<HTMLElement>('[data-testid=node-chips]')).filter(
        (c) => getComputedStyle(c).display !== 'none',
      );
      for (const row of rows) {
        const total = Number(row.dataset.total);
        const shown = row.querySelectorAll('[data-testid=queue-chip]').length;
        const m = row.querySelector<HTMLElement>('[data-testid=chips-more]');
        const counted = m ? Number(m.textContent!.replace('+', '')) : 0;
        more += counted;
        if (shown + counted !== total) hidden.push(`${name.title}: ${shown} shown + ${counted} counted of ${total}`);
        // each chip shown is inside the node's box (none half cut off at the bottom)
        for (const c of Array.from(row.querySelectorAll('[data-testid=queue-chip]')))
          if (c.getBoundingClientRect().bottom > box.bottom + 1)
            hidden.push(`${name.title}: chip "${c.textContent}" below the box`);
      }
    }
    return { nodes: nodes.length, cut, hidden, more };
  });
}

/** Nodes (DOM, or the overview's drawn bounds) outside the canvas or under the minimap. */
async function outOfView(page: Page): Promise<string[]> {
  const v = await nodesOutOfView(page);
  return [...v.outside, ...v.underMinimap];
}

/** out-of-view nodes once the view has settled (a notice bar appearing above the canvas re-fits it) */
async function settledOutOfView(page: Page): Promise<string[]> {
  let out: string[] = [];
  await waitFor('the view settled', async () => (out = await outOfView(page)).length === 0, 4000).catch(
    () => undefined,
  );
  return out;
}

const zoomOf = (page: Page) =>
  page.evaluate(() =>
    Number(
      /scale\(([\d.]+)\)/.exec((document.querySelector('.react-flow__viewport') as HTMLElement).style.transform)?.[1] ??
        NaN,
    ),
  );

export const canvasReadableFlow: Flow = {
  name: 'canvas: names whole and every setting shown or counted, on templates and a real file',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      for (const t of ['quorum-delivery-limit', 'dlx-ttl-wait-queue', 'chained-ttl']) {
        await page.goto(`${url}/?template=${t}`);
        await page.waitForSelector('[data-testid=node-name]');
        await page.waitForTimeout(400);
        const f = await faceProblems(page);
        assert(f.nodes > 0 && f.cut.length === 0, `${t} at ${w}x${h}: every name whole (cut: ${f.cut.join(', ')})`);
        assert(f.hidden.length === 0, `${t} at ${w}x${h}: every setting shown or counted (${f.hidden.join('; ')})`);
        const out = await settledOutOfView(page);
        assert(out.length === 0, `${t} at ${w}x${h}: opens fitted, clear of the minimap (outside: ${out.join(', ')})`);
        await shot(`${t}-${w}`);
      }
      // quorum-delivery-limit: its limit and dead-letter exchange are on the node, or in its "+N"
      await page.goto(`${url}/?template=quorum-delivery-limit`);
      await page.waitForSelector('[data-testid=node-queue]');
      const said = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('[data-testid=node-queue] [data-testid=node-chips]'))
          .filter((c) => getComputedStyle(c).display !== 'none')
          .map(
            (c) =>
              `${Array.from(c.querySelectorAll('[data-testid=queue-chip]'))
                .map((x) => `${x.textContent} ${x.getAttribute('title')}`)
                .join(' ')} ${c.querySelector('[data-testid=chips-more]')?.getAttribute('title') ?? ''}`,
          )
          .join(' | '),
      );
      assert(
        /delivery-limit/.test(said) && /dead-letter-exchange/.test(said),
        `quorum-delivery-limit at ${w}x${h}: limit and DLX on the node (${said})`,
      );

      // a real file (names like publishing-api_dlx): whole at the zoom it opens at
      await importFile(page, 'alphagov-publishing.json', realFile());
      await waitFor(
        'the real file drawn',
        async () => (await page.locator('[data-testid=node-name]').count()) > 5,
        20_000,
      );
      await page.waitForTimeout(600);
      const r = await faceProblems(page);
      assert(r.cut.length === 0, `real file at ${w}x${h}: every name whole (cut: ${r.cut.slice(0, 5).join(', ')})`);
      assert(
        r.hidden.length === 0,
        `real file at ${w}x${h}: every setting shown or counted (${r.hidden.slice(0, 4).join('; ')})`,
      );
      const out = await settledOutOfView(page);
      assert(
        out.length === 0,
        `real file at ${w}x${h}: opens fitted, clear of the minimap (outside: ${out.slice(0, 5).join(', ')})`,
      );
      await shot(`real-file-${w}`);
      // an edge label hovered is readable (12 px on screen) whatever the zoom
      const label = page.locator('[data-testid^=edge-label]').first();
      await label.hover();
      const px = await label.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      const z = await zoomOf(page);
      assert(px * z >= 11.5, `a hovered edge label is readable at ${w}x${h} (${(px * z).toFixed(1)} px on screen)`);
    }
  },
};

/** Drags the bottom panel's resizer up by `px` (the panel grows, the canvas shrinks), then lets the view settle. */
async function dragPanelUp(page: Page, px: number): Promise<void> {
  const bar = await page.locator('[data-testid=bottom-resizer]').boundingBox();
  assert(bar, 'the bottom panel has a resizer');
  await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width / 2, bar.y - px, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(500);
}

export const canvasMinimapResizeFlow: Flow = {
  name: 'canvas: the minimap covers no node after the bottom panel is resized',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=chained-ttl`);
      await page.waitForSelector('[data-testid=node-queue]');
      await page.waitForTimeout(400);
      await dragPanelUp(page, 160);
      // the opening view again: all of the design, clear of the minimap; or, where its names would read under 9 px
      // whole in the smaller canvas, a part of it at the zoom where they read, the minimap showing the rest
      const out = await settledOutOfView(page);
      const r = await readability(page);
      const mapped = (await page.locator('.react-flow__minimap').count()) > 0;
      // a canvas too small for the minimap shows none (graph/openingFit.ts minimapFits)
      const room = (await page.getAttribute('[data-testid=canvas]', 'data-minimap-room')) === 'true';
      console.log(
        `    ${w}x${h}: after the panel grew, zoom ${r.zoom.toFixed(2)}, ${out.length ? 'a part in view' : 'whole'}${room ? '' : ', no room for the minimap'}`,
      );
      assert(
        (await nodesOutOfView(page)).underMinimap.length === 0 &&
          (out.length === 0 || ((mapped || !room) && r.minNamePx >= 9)),
        `after the panel grew at ${w}x${h}: every node in view and none under the minimap, or names at 9 px and the minimap shown (${out.join(', ')}; ${r.small.slice(0, 2).join(', ')})`,
      );
      await shot(`resized-${w}`);
      // dragged as far as it goes (a 154 px canvas): no room beside or above a minimap, so none covers a node
      await dragPanelUp(page, 300);
      const least = await nodesOutOfView(page);
      assert(
        least.underMinimap.length === 0,
        `the smallest canvas at ${w}x${h}: no node under the minimap (${least.underMinimap.join(', ')})`,
      );
      await shot(`resized-least-${w}`);
    }
  },
};

export const canvasBigFileFlow: Flow = {
  name: 'canvas: a 1,000-queue file opens fitted, lint grouped with click into view, find a node by name',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('[data-testid=node-queue]');
      await importFile(page, 'big-definitions.json', teamServicesDefinitions(1000));
      await waitFor(
        'the overview drawn',
        async () => Number(await page.locator('[data-testid=canvas]').getAttribute('data-drawn')) >= 1000,
        60_000,
      );
      await page.waitForTimeout(500);
      const out = await settledOutOfView(page);
      assert(out.length === 0, `1,000 queues at ${w}x${h}: opens fitted and in view (outside: ${out.join(', ')})`);
      await shot(`big-overview-${w}`);

      // lint: one card per rule with a count, not one per queue
      await page.click('[data-testid=tab-lint]');
      await waitFor('lint cards', async () => (await page.locator('[data-testid=lint-finding]').count()) > 0, 30_000);
      const cards = await page
        .locator('[data-testid=lint-finding]')
        .evaluateAll((els) =>
          els.map((e) => ({ rule: e.getAttribute('data-rule')!, n: Number(e.getAttribute('data-count')) })),
        );
      const perRule = new Map<string, number>();
      for (const c of cards) perRule.set(c.rule, (perRule.get(c.rule) ?? 0) + 1);
      assert(
        cards.length < 30 && [...perRule.values()].every((n) => n <= 3 * 3),
        `lint grouped at ${w}x${h}: ${cards.length} cards (${JSON.stringify(cards.slice(0, 6))})`,
      );
      const grouped = cards.find((c) => c.n > 3);
      assert(grouped, `a rule firing on hundreds of queues is one card with a count (${JSON.stringify(cards)})`);
      await shot(`big-lint-${w}`);

      // a click on a finding brings its nodes into view (selected)
      const single = cards.find((c) => c.n === 1) ?? grouped;
      await page.locator(`[data-testid=lint-finding][data-rule="${single.rule}"]`).first().click();
      await page.waitForTimeout(600);
      const selectedOut = await page.evaluate(() => {
        const c = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
        const sel = Array.from(document.querySelectorAll('.react-flow__node.selected'));
        return {
          n: sel.length,
          out: sel.filter((e) => {
            const r = e.getBoundingClientRect();
            return r.left < c.left || r.right > c.right || r.top < c.top || r.bottom > c.bottom;
          }).length,
          drawn: document.querySelector<HTMLElement>('[data-testid=canvas]')!.dataset.drawn,
        };
      });
      assert(
        (selectedOut.n > 0 && selectedOut.out === 0) || selectedOut.drawn,
        `the finding's nodes are in view at ${w}x${h} (${JSON.stringify(selectedOut)})`,
      );
      await shot(`big-lint-click-${w}`);

      // find a node by name: "/" opens the box, Enter selects the node and brings it into view, readable
      await page.click('[data-testid=canvas] .react-flow__pane', { position: { x: 5, y: 5 } }).catch(() => undefined);
      await page.keyboard.press('Escape');
      await page.keyboard.press('/');
      await page.waitForSelector('[data-testid=node-search-input]');
      await page.fill('[data-testid=node-search-input]', 'shipping.service-421.documents.dlq');
      await waitFor('a hit', async () => (await page.locator('[data-testid=node-search-hit]').count()) > 0);
      await page.keyboard.press('Enter');
      const target = page.locator('.react-flow__node[data-id="queue:shipping.service-421.documents.dlq"]');
      await waitFor(
        'the node drawn and selected',
        async () => (await target.count()) === 1 && ((await target.getAttribute('class')) ?? '').includes('selected'),
        10_000,
      );
      const b = await target.boundingBox();
      const c = await page.locator('[data-testid=canvas]').boundingBox();
      assert(
        b && c && b.x >= c.x && b.y >= c.y && b.x + b.width <= c.x + c.width && b.y + b.height <= c.y + c.height,
        `the found node is in view at ${w}x${h}`,
      );
      const f = await faceProblems(page);
      assert(f.cut.length === 0, `zoomed in on the big file, names whole (${f.cut.slice(0, 4).join(', ')})`);
      await shot(`big-found-${w}`);
    }
  },
};

export const canvasScaleFlows: Flow[] = [canvasReadableFlow, canvasMinimapResizeFlow, canvasBigFileFlow];
