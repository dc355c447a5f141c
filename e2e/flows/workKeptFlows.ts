/**
 * The designer never loses work, and reads at 100 %: named designs across reloads and
 * replacements, and layout measured on bounding boxes at 1280x800 and 1920x1080.
 * Every flow name starts with "designer:" (`tsx e2e/run-e2e.ts --only designer:`).
 */
import type { Page } from 'playwright-core';
import { listTemplates } from '@retry-studio/topology-core/templates';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { clearKept, keptCurrent, keptIndex } from '../lib/storage.js';

const count = (page: Page, sel: string) => page.locator(sel).count();
const designName = (page: Page) => page.locator('[data-testid=design-name]').inputValue();

/** Types a name into the header (an edit: the design is no longer an untouched template) and waits for the save. */
async function rename(page: Page, name: string): Promise<void> {
  await page.fill('[data-testid=design-name]', name);
  await waitFor(`"${name}" stored`, async () => !!(await keptIndex(page))?.designs.some((e) => e.name === name));
}

async function storedNames(page: Page): Promise<string[]> {
  await page.click('[data-testid=designs-toggle]');
  await page.waitForSelector('[data-testid=designs-menu]');
  const names = await page
    .locator('[data-testid=design-open]')
    .evaluateAll((els) => els.map((e) => e.firstChild?.textContent ?? ''));
  await page.click('[data-testid=designs-toggle]');
  return names;
}

async function undoReplacement(page: Page, expected: string, nodes: number): Promise<void> {
  await page.waitForSelector('[data-testid=replaced-notice]');
  const notice = await page.locator('[data-testid=replaced-notice]').innerText();
  assert(notice.includes(`“${expected}” is kept`), `the notice says where the work went: ${notice}`);
  await page.click('[data-testid=replaced-undo]');
  await waitFor(`"${expected}" back after undo`, async () => (await designName(page)) === expected);
  await waitFor(`its ${nodes} nodes back`, async () => (await count(page, '.react-flow__node')) === nodes);
}

export const replaceUndoFlow: Flow = {
  name: 'designer: replacing the open design keeps it and undo brings it back',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await rename(page, 'my retry loop');
    const mine = await count(page, '.react-flow__node');
    // "Use template" in the gallery
    await page.click('[data-testid=open-gallery]');
    await page.locator('[data-testid=template-card][data-template=chained-ttl] [data-testid=template-use]').click();
    await waitFor('chained TTL drawn', async () => (await count(page, '.react-flow__node')) > mine);
    await shot('replaced');
    assert((await storedNames(page)).includes('my retry loop'), 'the replaced design is listed in My designs');
    await undoReplacement(page, 'my retry loop', mine);
    // a ?template= link on top of stored work
    await page.goto(`${url}/?template=requeue-once`);
    await page.waitForSelector('.react-flow__node');
    await waitFor('requeue-once open', async () => (await designName(page)) !== 'my retry loop');
    await undoReplacement(page, 'my retry loop', mine);
    // Import (design JSON pasted in the export panel), undone with Ctrl+Z
    await page.click('[data-testid=tab-export]');
    const other = JSON.stringify({
      format: 'retry-studio/design',
      version: 1,
      name: 'imported',
      topology: { exchanges: [], queues: [{ name: 'only.q', durable: true, arguments: {} }], bindings: [] },
      consumers: [],
      publishers: [],
      layout: {},
    });
    await page.fill('[data-testid=import-text]', other);
    await page.click('[data-testid=import-apply]');
    await waitFor('imported design open', async () => (await designName(page)) === 'imported');
    await page.waitForSelector('[data-testid=replaced-notice]');
    // out of the import box, below the notices strip (a click under the notice waited for it to go, 15 s)
    await page.click('[data-testid=canvas] .react-flow__pane', { position: { x: 10, y: 60 } });
    await page.keyboard.press('Control+z');
    await waitFor('Ctrl+Z brings the design back', async () => (await designName(page)) === 'my retry loop');
    assert((await count(page, '.react-flow__node')) === mine, 'with all its nodes');
    // a blank canvas from the designs menu
    await page.click('[data-testid=designs-toggle]');
    await page.click('[data-testid=designs-new]');
    await waitFor('blank canvas', async () => (await count(page, '.react-flow__node')) === 0);
    await undoReplacement(page, 'my retry loop', mine);
    // an untouched template does not pile up in the list
    const names = await storedNames(page);
    assert(!names.includes('Chained TTL tiers'), `an untouched template is not kept: ${names.join(', ')}`);
  },
};

export const namedDesignsFlow: Flow = {
  name: 'designer: named designs survive a reload (and the version-1 design is migrated)',
  async run({ page, url, shot }) {
    // a visitor from before named designs: one design under the old key
    await page.goto(`${url}/?template=requeue-once`);
    await page.waitForSelector('.react-flow__node');
    const legacy: { name: string } = await waitFor('the template kept', () => keptCurrent(page));
    await clearKept(page);
    await page.evaluate(
      `localStorage.setItem('retry-studio.design.v1', ${JSON.stringify(JSON.stringify({ ...legacy, name: 'from version 1' }))})`,
    );
    assert(legacy.name, 'a design to migrate');
    await page.goto(url);
    await waitFor('the old design opens', async () => (await designName(page)) === 'from version 1');
    assert(
      (await page.evaluate(() => localStorage.getItem('retry-studio.design.v1'))) === null,
      'old key migrated away',
    );
    assert(
      (await keptIndex(page))?.designs.some((e) => e.name === 'from version 1'),
      'the version-1 design is kept in IndexedDB',
    );
    // a second design, renamed
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await rename(page, 'second');
    // duplicate and rename through the menu
    await page.click('[data-testid=designs-toggle]');
    await page
      .locator('[data-testid=design-row]', { hasText: 'from version 1' })
      .locator('[data-testid=design-duplicate]')
      .click();
    await waitFor('copy listed', async () => (await count(page, '[data-testid=design-row]')) === 3);
    await page
      .locator('[data-testid=design-row]', { hasText: 'from version 1 (copy)' })
      .locator('[data-testid=design-rename]')
      .click();
    await page.fill('[data-testid=design-rename-input]', 'third');
    await page.click('[data-testid=design-rename-save]');
    await waitFor(
      'renamed',
      async () => (await page.locator('[data-testid=design-row]', { hasText: 'third' }).count()) === 1,
    );
    await shot('menu');
    await page.reload();
    await page.waitForSelector('.react-flow__node');
    assert((await designName(page)) === 'second', 'the design open before the reload is open after it');
    const names = (await storedNames(page)).sort();
    assert(
      JSON.stringify(names) === JSON.stringify(['from version 1', 'second', 'third']),
      `three designs after the reload: ${names.join(', ')}`,
    );
    // open one, then delete another
    await page.click('[data-testid=designs-toggle]');
    await page.locator('[data-testid=design-row]', { hasText: 'third' }).locator('[data-testid=design-open]').click();
    await waitFor('third open', async () => (await designName(page)) === 'third');
    await page.click('[data-testid=designs-toggle]');
    assert(
      await page.locator('[data-testid=design-row][data-current=true] [data-testid=design-delete]').isDisabled(),
      'the open design cannot be deleted',
    );
    const row = page.locator('[data-testid=design-row]', { hasText: 'second' });
    await row.locator('[data-testid=design-delete]').click();
    await row.locator('[data-testid=design-delete-confirm]').click();
    await waitFor('deleted', async () => (await count(page, '[data-testid=design-row]')) === 2);
    await page.reload();
    await page.waitForSelector('.react-flow__node');
    assert((await designName(page)) === 'third', 'still third after a reload');
    assert((await storedNames(page)).length === 2, 'the deletion stuck');
  },
};

/** Boxes of every edge label; pairs that overlap. */
async function labelOverlaps(page: Page): Promise<{ labels: number; overlaps: string[] }> {
  return page.evaluate(() => {
    const els = Array.from(document.querySelectorAll('[data-testid^=edge-label]'));
    const r = els.map((e) => e.getBoundingClientRect());
    const out: string[] = [];
    for (let i = 0; i < r.length; i++)
      for (let j = i + 1; j < r.length; j++) {
        const a = r[i]!;
        const b = r[j]!;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
          out.push(`${els[i]!.textContent} / ${els[j]!.textContent}`);
      }
    return { labels: r.length, overlaps: out };
  });
}

/** The smallest text on the nodes as drawn on screen: computed font size × the canvas zoom. */
async function smallestNodeText(page: Page): Promise<number> {
  return page.evaluate(() => {
    const zoom = Number(
      /scale\(([\d.]+)\)/.exec((document.querySelector('.react-flow__viewport') as HTMLElement).style.transform)?.[1] ??
        NaN,
    );
    const sizes = Array.from(document.querySelectorAll('.react-flow__node *'))
      .filter((e) => Array.from(e.childNodes).some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim()))
      .map((e) => parseFloat(getComputedStyle(e).fontSize));
    return Math.min(...sizes) * zoom;
  });
}

export const layoutFlow: Flow = {
  name: 'designer: readable layout at 1280x800 and 1920x1080',
  async run({ page, url, shot }) {
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=chained-ttl`);
      await page.waitForSelector('.react-flow__node');
      await page.waitForTimeout(400);
      const px = await smallestNodeText(page);
      // issue 41: node text at least 9 px on screen at the opening zoom (settings are 9 px when zoomed out, names 9-11)
      assert(px >= 9, `node text at least 9 px on screen at ${w}x${h} (${px.toFixed(1)} px)`);
      const labels = await labelOverlaps(page);
      assert(
        labels.labels >= 10 && labels.overlaps.length === 0,
        `no stacked edge labels at ${w}x${h}: ${labels.overlaps.join('; ')}`,
      );
      // simulate plays by itself; the countdowns and the x-death table
      await page.click('[data-testid=sim-run]');
      await waitFor(
        'playing',
        async () => (await page.locator('[data-testid=sim-play]').getAttribute('aria-label')) === 'Pause',
      );
      await page.waitForTimeout(1200);
      await shot(`playing-${w}`);
      await page.locator('[data-testid=timeline-lane]').first().click();
      await page.waitForSelector('[data-testid=xdeath-table]');
      const [table, panel] = await Promise.all([
        page.locator('[data-testid=xdeath-table]').boundingBox(),
        page.locator('[data-testid=side-panel]').boundingBox(),
      ]);
      assert(table && panel, 'boxes');
      assert(
        table.x >= panel.x && table.x + table.width <= panel.x + panel.width + 0.5,
        `x-death table inside its panel at ${w}x${h}: table ${table.x}+${table.width}, panel ${panel.x}+${panel.width}`,
      );
      const scrollW = await page
        .locator('[data-testid=side-panel] > div.overflow-auto')
        .evaluate((e) => e.scrollWidth - e.clientWidth);
      assert(scrollW <= 0, `the side panel does not scroll sideways (${scrollW} px)`);
      // "0 ms" once per instant in the message's path
      const times = await page.locator('[data-testid=message-path] li span:first-child').allInnerTexts();
      const repeats = times.filter((t, i) => t && i > 0 && t === times[i - 1]).length;
      assert(repeats === 0, `no time printed twice in a row: ${times.join(',')}`);
      await shot(`inspected-${w}`);
      await page.keyboard.press('Escape');
    }
    // no template stacks two edge labels
    const stacked: string[] = [];
    for (const t of listTemplates()) {
      await page.goto(`${url}/?template=${t.id}`);
      await page.waitForSelector('.react-flow__node');
      const o = await labelOverlaps(page);
      if (o.overlaps.length) stacked.push(`${t.id}: ${o.overlaps.join('; ')}`);
    }
    assert(stacked.length === 0, `stacked edge labels:\n${stacked.join('\n')}`);
    // the bottom panel: dragged taller, remembered after a reload
    await page.setViewportSize({ width: 1280, height: 800 });
    const before = (await page.locator('[data-testid=bottom-panel]').boundingBox())!.height;
    const grip = (await page.locator('[data-testid=bottom-resizer]').boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 100, { steps: 6 });
    await page.mouse.up();
    const after = (await page.locator('[data-testid=bottom-panel]').boundingBox())!.height;
    assert(Math.abs(after - before - 100) <= 2, `dragged 100 px taller (${before} → ${after})`);
    await page.reload();
    await page.waitForSelector('[data-testid=bottom-panel]');
    const reloaded = (await page.locator('[data-testid=bottom-panel]').boundingBox())!.height;
    assert(Math.abs(reloaded - after) <= 1, `height remembered (${after} → ${reloaded})`);
    // the budget folds repeated delays
    await page.click('[data-testid=tab-budget]');
    await page.click('[data-testid=budget-compute]');
    await page.waitForSelector('[data-testid=budget-table]');
    const cells = await page.locator('[data-testid=budget-row] td:nth-child(3)').allInnerTexts();
    assert(
      cells.every((c) => !/(\b\S+ \S+), \1/.test(c)),
      `no delay printed twice in a row: ${cells.join(' | ')}`,
    );
    await shot('budget');
  },
};

export const explanationFlow: Flow = {
  name: 'designer: the strategy explanation follows the parameters',
  async run({ page, url, shot }) {
    await page.goto(url);
    await page.waitForSelector('[data-testid=template-card]');
    const card = page.locator('[data-testid=template-card][data-template=radlx-delay-queue]');
    await card.locator('[data-testid=template-params]').click();
    const text = () => card.locator('[data-testid=template-explanation]').innerText();
    await waitFor('explanation', async () => (await text()).length > 40);
    const max = card.locator('[data-testid=param-maxPerCycle]');
    await max.fill('2');
    await waitFor('says 2nd', async () => (await text()).includes('2nd rejection'));
    await max.fill('11');
    await waitFor(
      'says 11th',
      async () => (await text()).includes('11th rejection') && (await text()).includes('11 attempts'),
    );
    await max.fill('23');
    await waitFor('says 23rd', async () => (await text()).includes('23rd rejection'));
    await shot('explained');
  },
};

export const workKeptFlows: Flow[] = [replaceUndoFlow, namedDesignsFlow, layoutFlow, explanationFlow];
