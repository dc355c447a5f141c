/**
 * Issue 26 (points 1, 3, 4, 5): the designer shows what is true. Each flow runs at 1440x900 and
 * 1280x800: every design opens in view and follows its flow; policies are drawn and named;
 * every republish has an edge; tuned templates are kept and imports named; invalid input is held
 * where it is typed, and selection survives undo. Names start with "designer-truth:".
 */
import type { Page } from 'playwright-core';
import { assert, mouseDrag, waitFor, type Flow } from '../lib/harness.js';
import { openFile } from '../lib/steps.js';
import { clearKept, keptCurrent } from '../lib/storage.js';

const SIZES = [
  [1440, 900],
  [1280, 800],
] as const;

const designName = (page: Page) => page.locator('[data-testid=design-name]').inputValue();

/** Nodes drawn outside the canvas (should be none), and the smallest node text on screen (font size × zoom). */
async function viewCheck(page: Page): Promise<{ nodes: number; outside: string[]; smallestPx: number; cut: string[] }> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
    const m = document.querySelector('.react-flow__minimap')?.getBoundingClientRect();
    const nodes = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node'));
    // outside the canvas, or under the minimap in its corner
    const outside = nodes
      .filter((n) => {
        const r = n.getBoundingClientRect();
        const underMinimap = !!m && r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom;
        return (
          r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1 || underMinimap
        );
      })
      .map((n) => n.getAttribute('data-id') ?? '?');
    const zoom = Number(
      /scale\(([\d.]+)\)/.exec((document.querySelector('.react-flow__viewport') as HTMLElement).style.transform)?.[1] ??
        NaN,
    );
    const sizes = Array.from(document.querySelectorAll('.react-flow__node *'))
      .filter((e) => Array.from(e.childNodes).some((x) => x.nodeType === Node.TEXT_NODE && x.textContent!.trim()))
      .map((e) => parseFloat(getComputedStyle(e).fontSize));
    // node names not shown whole: wrapped past the bottom of their box, or not the whole text
    const cut = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node [data-testid=node-name]'))
      .filter(
        (e) =>
          e.textContent !== e.title ||
          e.getBoundingClientRect().bottom > e.closest('.react-flow__node')!.getBoundingClientRect().bottom + 1,
      )
      .map((e) => e.title);
    return { nodes: nodes.length, outside, smallestPx: Math.min(...sizes) * zoom, cut };
  });
}

/** All nodes inside the canvas; `readable`: node text at least 9 px on screen and no name cut too (a template; a 28-node import is fitted smaller). */
async function assertInView(page: Page, what: string, readable = true): Promise<void> {
  await page.waitForSelector('.react-flow__node');
  await page.waitForTimeout(500);
  const v = await viewCheck(page);
  assert(
    v.nodes > 0 && v.outside.length === 0,
    `${what}: all ${v.nodes} nodes in view, none under the minimap (outside: ${v.outside.join(', ')})`,
  );
  // issue 41's bar: node text at least 9 px on screen at the opening zoom
  if (readable) assert(v.smallestPx >= 8.9, `${what}: node text readable on screen (${v.smallestPx.toFixed(1)} px)`);
  if (readable) assert(v.cut.length === 0, `${what}: every node name whole (cut: ${v.cut.join(', ')})`);
}

/** Edge labels that stack on another label, or sit half under a node's box. */
async function labelProblems(page: Page): Promise<{ labels: number; problems: string[] }> {
  // no named functions inside: the page has no `__name` (tsx keeps names)
  return page.evaluate(() => {
    const labels = Array.from(document.querySelectorAll('[data-testid^=edge-label]')).map((e) => ({
      text: e.textContent ?? '',
      r: e.getBoundingClientRect(),
    }));
    const nodes = Array.from(document.querySelectorAll('.react-flow__node')).map((e) => ({
      id: e.getAttribute('data-id') ?? '',
      r: e.getBoundingClientRect(),
    }));
    const problems: string[] = [];
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i]!.r;
      const others = [
        ...labels.slice(i + 1).map((l) => ({ what: `on "${l.text}"`, r: l.r, limit: 1 })),
        ...nodes.map((n) => ({ what: `under ${n.id}`, r: n.r, limit: 0.5 * a.width * a.height })),
      ];
      for (const o of others) {
        const area =
          Math.max(0, Math.min(a.right, o.r.right) - Math.max(a.left, o.r.left)) *
          Math.max(0, Math.min(a.bottom, o.r.bottom) - Math.max(a.top, o.r.top));
        if (area > o.limit) problems.push(`"${labels[i]!.text}" ${o.what}`);
      }
    }
    return { labels: labels.length, problems };
  });
}

const nodeX = (page: Page, id: string) =>
  page
    .locator(`.react-flow__node[data-id="${id}"]`)
    .boundingBox()
    .then((b) => b?.x ?? NaN);

/** A definitions file: 13 work queues on one topic exchange dead-lettering into one DLX, a DLQ each, and a 7-day TTL policy on every *.dlq. */
function definitionsFile(): string {
  const names = Array.from({ length: 13 }, (_, i) => `svc${i}`);
  return JSON.stringify({
    rabbit_version: '3.10.8',
    vhosts: [{ name: '/' }],
    exchanges: [
      {
        name: 'billing.dlx',
        vhost: '/',
        type: 'direct',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
      { name: 'billing', vhost: '/', type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} },
    ],
    queues: names.flatMap((q) => [
      { name: `${q}.dlq`, vhost: '/', durable: true, auto_delete: false, arguments: {} },
      {
        name: q,
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'billing.dlx', 'x-dead-letter-routing-key': `${q}.dlq` },
      },
    ]),
    bindings: names.flatMap((q) => [
      {
        source: 'billing',
        vhost: '/',
        destination: q,
        destination_type: 'queue',
        routing_key: `${q}.#`,
        arguments: {},
      },
      {
        source: 'billing.dlx',
        vhost: '/',
        destination: `${q}.dlq`,
        destination_type: 'queue',
        routing_key: `${q}.dlq`,
        arguments: {},
      },
    ]),
    policies: [
      {
        vhost: '/',
        name: 'dlq-ttl',
        pattern: '\\.dlq$',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'message-ttl': 604800000 },
      },
    ],
  });
}

export const inViewFlow: Flow = {
  name: 'designer-truth: every design opens in view, laid out along its flow',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await assertInView(page, `template at ${w}x${h}`);
      const tl = await labelProblems(page);
      assert(
        tl.labels >= 6 && tl.problems.length === 0,
        `template labels neither stack nor hide under boxes at ${w}x${h} (${tl.labels}): ${tl.problems.join('; ')}`,
      );
      await shot(`template-${w}`);
      // a seven-column template: its last column stays clear of the minimap (it sat under it at 1280x800)
      await page.goto(`${url}/?template=chained-ttl`);
      await assertInView(page, `chained-ttl at ${w}x${h}`, false);
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.reload();
      await assertInView(page, `reload at ${w}x${h}`);
      // a definitions file: named after it, in view, the DLX right of the 13 queues that feed it
      await openFile(page, { name: 'billing-definitions.json', text: definitionsFile() }, 'import-file', 'export-tab');
      await waitFor(
        'the import is named after the file',
        async () => (await designName(page)) === 'billing-definitions',
      );
      await assertInView(page, `file import at ${w}x${h}`, false);
      const dlx = await nodeX(page, 'exchange:billing.dlx');
      const work = await Promise.all(Array.from({ length: 13 }, (_, i) => nodeX(page, `queue:svc${i}`)));
      const dlqs = await Promise.all(Array.from({ length: 13 }, (_, i) => nodeX(page, `queue:svc${i}.dlq`)));
      assert(
        dlx > Math.max(...work),
        `the DLX (x ${dlx}) is right of the queues that dead-letter into it (max x ${Math.max(...work)})`,
      );
      assert(Math.min(...dlqs) > dlx, 'the dead-letter queues are right of the DLX');
      const fl = await labelProblems(page);
      // labels under 9 px on screen are shown only hovered (issue 41): their stacking is checked where they are drawn
      const labelsShown = (await page.locator('[data-testid=canvas][data-edge-labels=small]').count()) === 0;
      assert(
        fl.labels >= 39 && (!labelsShown || fl.problems.length === 0),
        `import labels neither stack nor hide under boxes at ${w}x${h} (${fl.labels}): ${fl.problems.slice(0, 6).join('; ')}`,
      );
      // the 7-day policy on every *.dlq shows on those queues
      // (the node packs its chips once per zoom level; at this zoom it may sit in the "+N" summary)
      const ttl = page
        .locator('.react-flow__node[data-id="queue:svc3.dlq"] [data-testid=queue-chip][data-policy=dlq-ttl]')
        .first();
      assert(((await ttl.textContent()) ?? '').includes('TTL 7d'), 'the dlq-ttl policy is drawn on svc3.dlq');
      await shot(`file-import-${w}`);
      // My designs opens it again in view (from another design)
      await page.goto(`${url}/?template=requeue-once`);
      await page.waitForSelector('.react-flow__node');
      await page.click('[data-testid=designs-toggle]');
      await page.locator('[data-testid=design-open]', { hasText: 'billing-definitions' }).first().click();
      await waitFor('billing-definitions open again', async () => (await designName(page)) === 'billing-definitions');
      await assertInView(page, `My designs at ${w}x${h}`, false);
    }
    // Auto-layout improves a design whose layout reads backwards (the DLX placed at the far left)
    await page.setViewportSize({ width: 1440, height: 900 });
    const backwards = (await keptCurrent<{ layout: Record<string, { x: number; y: number }> }>(page))!;
    backwards.layout['exchange:billing.dlx'] = { x: -2000, y: 0 };
    await page.click('[data-testid=tab-export]');
    await page.fill('[data-testid=import-text]', JSON.stringify({ ...backwards, name: 'backwards' }));
    await page.click('[data-testid=import-apply]');
    await waitFor('backwards open', async () => (await designName(page)) === 'backwards');
    await page.waitForTimeout(400);
    assert(
      (await nodeX(page, 'exchange:billing.dlx')) < (await nodeX(page, 'queue:svc0')),
      'before: the DLX is at the far left',
    );
    await page.click('[data-testid=cmd-autoLayout]');
    await waitFor(
      'auto-layout moves the DLX right of its queues',
      async () => (await nodeX(page, 'exchange:billing.dlx')) > (await nodeX(page, 'queue:svc0')),
    );
    await shot('auto-layout');
  },
};

export const effectiveFlow: Flow = {
  name: 'designer-truth: policy settings are drawn and named, every republish has an edge',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue&settings=policy`);
      await page.waitForSelector('.react-flow__node');
      const dl = page.locator('[data-testid=edge-label-deadLetter]');
      await waitFor('dead-letter edges drawn from the policies', async () => (await dl.count()) === 2);
      assert(
        (await dl.evaluateAll((els) => els.map((e) => e.getAttribute('data-policy')))).every(
          (p) => p && p.endsWith('.settings'),
        ),
        'each names its policy',
      );
      const chips = page.locator(
        '.react-flow__node[data-id="queue:orders.wait"] [data-testid=queue-chip][data-policy="orders.wait.settings"]',
      );
      assert((await chips.first().innerText()).startsWith('TTL 5s'), 'the TTL chip, from the policy');
      // the worker parks through the default exchange: an edge to the parking queue
      const republish = await page
        .locator('.react-flow__edge')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-id') ?? '').filter((id) => id.startsWith('rp')));
      assert(
        republish.some((id) => id.includes('orders.parking')),
        `a republish edge to orders.parking: ${republish.join(', ')}`,
      );
      // the inspector: what is in effect and where it comes from, never "not set"
      await page.click('.react-flow__node[data-id="queue:orders.wait"]');
      await page.click('[data-testid=tab-inspect]');
      const ttl = page.locator('[data-testid=field-ttl]');
      const placeholder = (await ttl.getAttribute('placeholder')) ?? '';
      assert(
        placeholder.includes('5000') && placeholder.includes('policy orders.wait.settings'),
        `TTL field says what is in effect: "${placeholder}"`,
      );
      assert(
        (await page.locator('[data-testid=inspector-queue]').innerText()).includes(
          'In effect: 5000 from policy orders.wait.settings',
        ),
        'and the hint names the policy',
      );
      await shot(`policy-${w}`);
    }
  },
};

export const invalidInputFlow: Flow = {
  name: 'designer-truth: invalid input is held where it is typed; errors go when fixed; selection survives undo',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('.react-flow__node');
      const wait = '.react-flow__node[data-id="queue:orders.wait"]';
      await page.click(wait);
      await page.click('[data-testid=tab-inspect]');
      await page.fill('[data-testid=field-ttl]', '-5');
      const err = page.locator('[data-testid=field-error]').first();
      await waitFor('the field says what is wrong, naming the queue', async () =>
        (await err.innerText()).startsWith('orders.wait: x-message-ttl'),
      );
      assert((await page.locator(`${wait} [data-testid=lint-marker]`).innerText()) === '!', 'the node is marked');
      const chips = await page.locator(`${wait} [data-testid=queue-chip]`).allInnerTexts();
      assert(
        !chips.some((c) => c.includes('-5')) && chips.includes('TTL 5s'),
        `the design keeps 5 s, no "TTL -5ms" chip: ${chips.join(', ')}`,
      );
      await page.click('[data-testid=tab-lint]');
      const finding = page.locator('[data-testid=lint-finding]', { hasText: 'orders.wait: x-message-ttl' });
      assert(
        (await finding.count()) === 1 && (await finding.getAttribute('data-rule')) === 'ttl-range',
        'Lint lists it by object name',
      );
      await shot(`held-${w}`);
      await page.click('[data-testid=tab-inspect]');
      await page.fill('[data-testid=field-ttl]', '2000');
      await waitFor(
        'fixed: the error and the marker go',
        async () =>
          (await page.locator('[data-testid=field-error]').count()) === 0 &&
          (await page.locator(`${wait} [data-testid=lint-marker]`).count()) === 0,
      );
      assert(
        (await page.locator(`${wait} [data-testid=queue-chip]`).allInnerTexts()).includes('TTL 2s'),
        'the fixed value is stored',
      );
      assert(
        (await page.locator('[data-testid=lint-finding]', { hasText: 'orders.wait: x-message-ttl' }).count()) === 0,
        'and Lint no longer lists it',
      );

      // the simulate error belongs to the design it was raised for
      await page.locator('.react-flow__node[data-id^="publisher:"]').first().click();
      await page.click('[data-testid=cmd-delete]');
      await waitFor(
        'publisher deleted',
        async () => (await page.locator('.react-flow__node[data-id^="publisher:"]').count()) === 0,
      );
      await page.click('[data-testid=sim-run]');
      await page.waitForSelector('[data-testid=sim-error]');
      await page.click('[data-testid=cmd-undo]');
      await waitFor(
        'the error goes with the fix',
        async () => (await page.locator('[data-testid=sim-error]').count()) === 0,
      );

      // draw an edge, undo, click a node: one object selected, the inspector usable
      await mouseDrag(
        page,
        '.react-flow__node[data-id="queue:orders.parking"] .react-flow__handle-right',
        '.react-flow__node[data-id="exchange:orders"] .react-flow__handle-left',
      );
      await waitFor(
        'an edge drawn and selected',
        async () => (await page.locator('.react-flow__edge.selected').count()) === 1,
      );
      await page.click('[data-testid=cmd-undo]');
      await page.click('.react-flow__node[data-id="queue:orders.q"]');
      await page.click('[data-testid=tab-inspect]');
      await page.waitForSelector('[data-testid=inspector-queue]');
      assert(
        !(await page.locator('[data-testid=side-panel]').innerText()).includes('objects selected'),
        'not "2 objects selected"',
      );
      await page.click('[data-testid=cmd-redo]');
      await page.click('.react-flow__node[data-id="queue:orders.wait"]');
      await page.waitForSelector('[data-testid=inspector-queue]');
      await shot(`selection-${w}`);
    }
  },
};

export const keptFlow: Flow = {
  name: 'designer-truth: a tuned template is kept when another opens',
  async run({ page, url, shot }) {
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(url);
      await clearKept(page);
      await page.goto(url);
      const card = page.locator('[data-testid=template-card][data-template=dlx-ttl-wait-queue]');
      await card.locator('[data-testid=template-params]').click();
      await card.locator('[data-testid=param-maxRetries]').fill('5');
      await card.locator('[data-testid=param-delayMs]').fill('2000');
      await card.locator('[data-testid=template-use]').click();
      await waitFor('the tuned template is named for its parameters', async () =>
        (await designName(page)).includes('maxRetries 5, delayMs 2000 ms'),
      );
      const tuned = await designName(page);
      await assertInView(page, `tuned template at ${w}x${h}`);
      // its name reads whole in the toolbar, and the toolbar still fits
      const nameBox = await page.evaluate(() => {
        const i = document.querySelector<HTMLInputElement>('[data-testid=design-name]')!;
        return {
          text: i.scrollWidth,
          shown: i.clientWidth,
          header: i.parentElement!.scrollWidth - i.parentElement!.clientWidth,
        };
      });
      assert(
        nameBox.shown >= nameBox.text && nameBox.header <= 0,
        `the tuned name fits its field at ${w}x${h} (${nameBox.shown} of ${nameBox.text} px; header overflow ${nameBox.header})`,
      );
      await page.click('[data-testid=open-gallery]');
      await page.locator('[data-testid=template-card][data-template=chained-ttl] [data-testid=template-use]').click();
      await waitFor('chained-ttl open', async () => (await designName(page)) !== tuned);
      await page.click('[data-testid=designs-toggle]');
      const names = await page
        .locator('[data-testid=design-open]')
        .evaluateAll((els) => els.map((e) => e.firstChild?.textContent ?? ''));
      assert(names.includes(tuned), `"${tuned}" is kept in My designs: ${names.join(', ')}`);
      await shot(`kept-${w}`);
      await page.click('[data-testid=designs-toggle]');
    }
  },
};

export const designerTruthFlows: Flow[] = [inViewFlow, effectiveFlow, invalidInputFlow, keptFlow];
