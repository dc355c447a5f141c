/**
 * Issue 41 (items 3 and 4): real users' files open fast and readable. A 5,000-queue file read, laid
 * out and linted off the page with its progress shown, its groups labelled at the opening zoom, one
 * click into names, kept in IndexedDB across a reload; designs kept in localStorage moved over; names
 * whole and readable at the opening zoom on the templates and the corpus's real files. Each flow runs
 * at 1440x900 and 1280x800. Names start with "canvas-big:". Times are printed, never asserted
 * (bench:canvas measures them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { listTemplates } from '@retry-studio/topology-core/templates';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { openFile, SIZES } from '../lib/steps.js';
import { ROOT } from '../lib/server.js';
import { retryGroupsDefinitions, tenantDefinitions } from '../lib/bigDefinitions.js';
import { nodesOutOfView, readability } from '../lib/readability.js';
import { clearKept, keptIndex } from '../lib/storage.js';
import { LONG_TASK_RECORDER, longestTaskSince } from '../lib/traceTasks.js';

/** issue 41's file: 1,000 retry groups of five queues (10,005 nodes once its actors are scaffolded) */
const GROUPS = 1000;
const NODES = GROUPS * 5 + 5 + GROUPS * 3 + GROUPS * 2;

/** before the page's scripts: long tasks and the import's progress texts, recorded for the flow to read */
const RECORDER = `
  ${LONG_TASK_RECORDER}
  window.__progress = [];
  new MutationObserver(() => {
    const p = document.querySelector('[data-testid=import-progress]');
    const t = p && p.textContent;
    if (t && window.__progress[window.__progress.length - 1] !== t) window.__progress.push(t);
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

const canvasAttr = (page: Page, name: string) =>
  page.evaluate(
    `document.querySelector('[data-testid=canvas]')?.getAttribute(${JSON.stringify(name)}) ?? ''`,
  ) as Promise<string>;

const overviewDrawn = async (page: Page) => Number(await canvasAttr(page, 'data-drawn')) >= NODES;

export const bigFileFlow: Flow = {
  name: 'canvas-big: a 5,000-queue file opens off the page with progress, groups labelled, one click into names, kept across a reload',
  async run({ page, url, shot }) {
    await page.addInitScript(RECORDER);
    const text = retryGroupsDefinitions(GROUPS);
    for (const { w, h } of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(url);
      await clearKept(page);
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('[data-testid=node-queue]');
      const t0 = Date.now();
      // the page's own tasks from here (its loading is not the import's)
      const chosen = (await page.evaluate('performance.now()')) as number;
      await openFile(page, { name: 'retry-groups.json', text });
      await waitFor('the overview drawn', () => overviewDrawn(page), 120_000);
      const drawnMs = Date.now() - t0;
      await page.waitForTimeout(800);
      const progress = (await page.evaluate('window.__progress')) as string[];
      assert(
        progress.some((p) => /Laying out [\d,]+ nodes/.test(p)),
        `${w}x${h}: the import shows its progress (${progress.join(' | ')})`,
      );
      // the overview names its groups, readably: a dozen runs of consecutive retry groups, not "app · 0 queues"
      const labels = (await canvasAttr(page, 'data-group-labels')).split('\n').filter(Boolean);
      const labelPx = Number(await canvasAttr(page, 'data-group-label-px'));
      assert(labels.length >= 8, `${w}x${h}: the opening view labels its groups (${labels.join(' | ')})`);
      assert(labelPx >= 9, `${w}x${h}: group labels at least 9 px on screen (${labelPx})`);
      assert(
        labels.some((l) => /^svc-0001 … svc-\d{4} · \d+ queues$/.test(l)),
        `${w}x${h}: a label names its run of groups and queues (${labels.slice(0, 3).join(' | ')})`,
      );
      const longest = Math.round(await longestTaskSince(page, chosen));
      console.log(
        `    ${w}x${h}: drawn ${drawnMs} ms after the file was chosen; longest task since ${longest} ms (noisy: bench:canvas measures)`,
      );
      await shot(`overview-${w}`);

      // one click on a group: its names, readable
      const c = (await page.locator('[data-testid=canvas]').boundingBox())!;
      await page.mouse.click(c.x + c.width * 0.45, c.y + c.height * 0.5);
      await waitFor('names drawn after the click', async () => (await readability(page)).nodes > 0, 20_000);
      await page.waitForTimeout(600);
      const r = await readability(page);
      assert(
        r.minNamePx >= 9,
        `${w}x${h}: after one click names are at least 9 px (${r.small.slice(0, 3).join(', ')})`,
      );
      assert(
        r.midWord.length === 0 && r.cut.length === 0,
        `${w}x${h}: names whole (${[...r.midWord, ...r.cut].join(', ')})`,
      );
      await shot(`clicked-${w}`);

      // a reload opens it again from IndexedDB, nothing of it in localStorage
      const r0 = Date.now();
      await page.reload();
      await waitFor('the overview drawn after the reload', () => overviewDrawn(page), 120_000);
      console.log(`    ${w}x${h}: reload drawn in ${Date.now() - r0} ms (noisy)`);
      assert(
        (await page.inputValue('[data-testid=design-name]')) === 'retry-groups',
        `${w}x${h}: the file's design reopened`,
      );
      assert(
        (await keptIndex(page))?.designs.some((d) => d.name === 'retry-groups'),
        `${w}x${h}: the design is kept in IndexedDB`,
      );
      const inLocal = (await page.evaluate(
        `Object.keys(localStorage).filter((k) => k.startsWith('retry-studio.design'))`,
      )) as string[];
      assert(inLocal.length === 0, `${w}x${h}: no design in localStorage (${inLocal.join(', ')})`);
      await shot(`reloaded-${w}`);
    }
  },
};

export const midSizeFlow: Flow = {
  name: 'canvas-big: a file of a few hundred nodes opens with its groups labelled, one click into names',
  async run({ page, url, shot }) {
    for (const { w, h } of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=requeue-once`);
      await page.waitForSelector('.react-flow__node');
      // 12 tenants, each a topic exchange, a DLX, 6 work queues and a DLQ, with their workers and publishers
      await openFile(page, { name: 'tenants.json', text: tenantDefinitions(12, 6) });
      await waitFor('the overview drawn', async () => Number(await canvasAttr(page, 'data-drawn')) > 60, 30_000);
      await page.waitForTimeout(600);
      const labels = (await canvasAttr(page, 'data-group-labels')).split('\n').filter(Boolean);
      const px = Number(await canvasAttr(page, 'data-group-label-px'));
      assert(
        labels.length >= 6 && labels.some((l) => /^acme-0001 · 7 queues$/.test(l)),
        `${w}x${h}: the tenants are labelled (${labels.join(' | ')})`,
      );
      assert(px >= 9, `${w}x${h}: group labels at least 9 px (${px})`);
      await shot(`mid-overview-${w}`);
      const c = (await page.locator('[data-testid=canvas]').boundingBox())!;
      await page.mouse.click(c.x + c.width * 0.3, c.y + c.height * 0.4);
      await waitFor('names drawn after the click', async () => (await readability(page)).nodes > 0, 10_000);
      await page.waitForTimeout(500);
      const r = await readability(page);
      assert(
        r.minNamePx >= 9 && r.midWord.length === 0,
        `${w}x${h}: names readable after one click (${r.small.slice(0, 3).join(', ')})`,
      );
      await shot(`mid-clicked-${w}`);
    }
  },
};

export const movedToIndexedDbFlow: Flow = {
  name: 'canvas-big: designs kept in localStorage move to IndexedDB on first load, losing nothing',
  async run({ page, url, shot }) {
    for (const { w, h } of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(url);
      await clearKept(page);
      // what a visitor before IndexedDB had: two named designs, the second open
      await page.evaluate(`(() => {
        const design = (name, q) => ({ format: 'retry-studio/design', version: 1, name,
          topology: { exchanges: [], queues: [{ name: q, durable: true, auto_delete: false, arguments: {} }], bindings: [] },
          consumers: [], publishers: [], layout: { ['queue:' + q]: { x: 0, y: 0 } } });
        localStorage.setItem('retry-studio.designs.d-one', JSON.stringify(design('kept one', 'one.q')));
        localStorage.setItem('retry-studio.designs.d-two', JSON.stringify(design('kept two', 'two.q')));
        localStorage.setItem('retry-studio.designs', JSON.stringify({ version: 2, currentId: 'd-two', designs: [
          { id: 'd-two', name: 'kept two', updatedAt: 2 }, { id: 'd-one', name: 'kept one', updatedAt: 1 }] }));
      })()`);
      await page.goto(url);
      await waitFor(
        'the open design back',
        async () => (await page.inputValue('[data-testid=design-name]')) === 'kept two',
      );
      const index = await keptIndex(page);
      assert(
        index?.designs
          .map((d) => d.name)
          .sort()
          .join() === 'kept one,kept two',
        `${w}x${h}: both designs in IndexedDB (${JSON.stringify(index)})`,
      );
      const left = (await page.evaluate(
        `Object.keys(localStorage).filter((k) => k.startsWith('retry-studio.design'))`,
      )) as string[];
      assert(left.length === 0, `${w}x${h}: localStorage holds them no more (${left.join(', ')})`);
      // the other one opens from My designs (its body read then)
      await page.click('[data-testid=designs-toggle]');
      await page.locator('[data-testid=design-open]', { hasText: 'kept one' }).click();
      await waitFor('kept one open', async () => (await page.inputValue('[data-testid=design-name]')) === 'kept one');
      await page.waitForSelector('.react-flow__node[data-id="queue:one.q"]');
      await shot(`moved-${w}`);
    }
  },
};

/** a real file from the CLI's corpus */
const corpusFile = (name: string) => readFileSync(join(ROOT, 'apps/server/src/cli/corpus', name), 'utf8');

/**
 * Names at 9 px and more at the opening zoom, whole and never broken; a queue's defining settings (TTL, DLX,
 * delivery limit) whole on its node: never cut short, never counted in "+N" (faceFit.ts's tight face).
 */
async function checkReadable(page: Page, label: string, w: number): Promise<void> {
  await page.waitForTimeout(700);
  const r = await readability(page);
  const key = `${label}@${w}`;
  assert(r.nodes > 0, `${key}: drawn`);
  assert(r.midWord.length === 0, `${key}: no name broken inside a word (${r.midWord.join(', ')})`);
  assert(r.cut.length === 0, `${key}: every name whole (${r.cut.join(', ')})`);
  assert(r.clipped.length === 0, `${key}: no node text cut short (${r.clipped.join(', ')})`);
  assert(r.minEdgeLabelPx >= 9, `${key}: edge labels shown are at least 9 px (${r.minEdgeLabelPx.toFixed(1)})`);
  assert(
    r.nodes > 60 || r.minNamePx >= 9,
    `${key}: names at least 9 px on screen at the opening zoom ${r.zoom.toFixed(2)} (${r.small.slice(0, 3).join(', ')})`,
  );
  assert(r.squeezed.length === 0, `${key}: no defining setting cut short (${r.squeezed.join('; ')})`);
  // a queue's defining settings are always on its node (issue 41), a template's and a real file's alike
  assert(r.definingHidden.length === 0, `${key}: no defining setting in "+N" (${r.definingHidden.join(', ')})`);
}

/**
 * Real files from the corpus, opened from Open / Import (`vhost`: the one opened of a file with several).
 * rabbitmq-case9a's "/" holds 37 nodes, two of them queues named in 72 characters
 * ("langohr.tests2.queues.client-named.durable.non-exclusive.non-auto-deleted"), which a face shows at 9 px
 * only from a zoom of about 0.7: it opens there, from its start, the minimap showing the rest.
 */
const REAL_FILES: readonly { file: string; vhost?: number }[] = [
  { file: 'alphagov-publishing-rendered' },
  { file: 'iqkv-microservices-platform' },
  { file: 'localega-qc-exchange-binding' },
  { file: 'screwdriver-buildcluster-retry', vhost: 1 },
  { file: 'tracktion-ttl-without-dlx' },
  { file: 'rabbitmq-case9a', vhost: 1 },
];

export const readableOpeningFlow: Flow = {
  name: 'canvas-big: names whole, never broken inside a word, readable at the opening zoom (17 templates, real files)',
  async run({ page, url, shot }) {
    for (const { w, h } of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      for (const t of listTemplates()) {
        await page.goto(`${url}/?template=${t.id}`);
        await page.waitForSelector('.react-flow__node');
        await checkReadable(page, t.id, w);
        if (t.id === 'dlx-delayed-requeue' || t.id === 'quorum-delivery-limit') await shot(`${t.id}-${w}`);
      }
      // quorum-delivery-limit's defining settings are on the node, not in a "+N" chip
      await page.goto(`${url}/?template=quorum-delivery-limit`);
      await page.waitForSelector('[data-testid=node-queue]');
      const defining =
        (await page.evaluate(`Array.from(document.querySelectorAll('[data-testid=node-queue] [data-testid=node-chips]'))
        .filter((c) => getComputedStyle(c).display !== 'none')
        .flatMap((c) => Array.from(c.querySelectorAll('[data-defining=true]')).map((x) => x.getAttribute('title')))`)) as string[];
      assert(
        defining.some((d) => d.startsWith('x-delivery-limit')) &&
          defining.some((d) => d.startsWith('x-dead-letter-exchange')),
        `quorum-delivery-limit at ${w}x${h}: delivery limit and DLX on the node (${defining.join('; ')})`,
      );
      for (const { file: f, vhost } of REAL_FILES) {
        await page.goto(`${url}/?template=requeue-once`);
        await page.waitForSelector('.react-flow__node');
        await openFile(page, { name: `${f}.json`, text: corpusFile(`${f}.json`) });
        if (vhost !== undefined) {
          await page.waitForSelector('[data-testid=vhost-choice-open]');
          await page.locator('[data-testid=vhost-choice-open]').nth(vhost).click();
        }
        // named after the file (and its vhost where it names one)
        await waitFor(
          `${f} open`,
          async () => (await page.inputValue('[data-testid=design-name]')).startsWith(f),
          20_000,
        );
        await checkReadable(page, f, w);
        // a view opened on a part of the design shows the minimap: beside what is in view, over no node
        const under = (await nodesOutOfView(page)).underMinimap;
        assert(under.length === 0, `${f} at ${w}x${h}: no node under the minimap (${under.join(', ')})`);
        await shot(`${f}-${w}`);
      }
    }
  },
};

export const bigFileFlows: Flow[] = [bigFileFlow, midSizeFlow, movedToIndexedDbFlow, readableOpeningFlow];
