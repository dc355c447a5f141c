/**
 * Results the user can trust and read (issue 26 points 2, 7, 8, 9): a result never outlives the
 * design version it was computed for; the results panel resizes and its tables fit 1280x800;
 * Operate takes the broker URL's vhost and browses in one click; Open / Import sits in the
 * toolbar; the plan shows arguments and, for a conflict, before and after. Each flow runs at
 * 1280x800 and 1440x900 (screenshots of both).
 */
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';
import { importedSummary, makeVhost, mgmt } from './operateFlows.js';
import { B310, blankStart, openFile, setBrokerUrl, SIZES } from '../lib/steps.js';
const drawn = (page: Page) =>
  page.evaluate(() => (window as unknown as { __overlay?: { drawnTokens: number } }).__overlay?.drawnTokens ?? -1);
/** scrollWidth over clientWidth: > 0 means the element scrolls sideways */
const overflowX = (page: Page, sel: string) =>
  page
    .locator(sel)
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);

async function simulate(page: Page): Promise<void> {
  await page.selectOption('[data-testid=sim-failure]', 'failFirst');
  await page.fill('[data-testid=sim-k]', '2');
  await page.fill('[data-testid=sim-count]', '3');
  await page.click('[data-testid=sim-run]');
  await page.waitForSelector('[data-testid=sim-summary]');
}

/** An edit that changes what results depend on: the wait queue's TTL, through the inspector. */
async function editWaitTtl(page: Page, ttl: string): Promise<void> {
  await page.click('[data-testid=cmd-fitView]');
  await page.waitForTimeout(300);
  await page.click('[data-testid=node-queue][data-name*="wait"] >> nth=0');
  await page.click('[data-testid=tab-inspect]');
  await page.fill('[data-testid=field-ttl]', ttl);
  await page.keyboard.press('Tab');
}

export const staleResultsFlow: Flow = {
  name: 'results: an edit, an undo or another design never shows an old result as current',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await page.setViewportSize({ width: s.w, height: s.h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('.react-flow__node');
      await simulate(page);
      if ((await page.getAttribute('[data-testid=sim-play]', 'aria-label')) === 'Play')
        await page.click('[data-testid=sim-play]');
      await waitFor('tokens on the canvas', async () => (await drawn(page)) > 0, 10_000);
      await page.click('[data-testid=tab-budget]');
      await page.click('[data-testid=budget-compute]');
      await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 2, 30_000);
      assert(
        (await overflowX(page, '[data-testid=budget-panel]')) <= 0,
        `the budget fits ${s.w}x${s.h} without scrolling sideways`,
      );
      await shot(`${s.w}-budget`);

      // an edit: no timeline, no tokens, the budget says it is stale
      await editWaitTtl(page, '9000');
      await waitFor(
        'the budget marked stale',
        async () => (await page.locator('[data-testid=budget-result]').getAttribute('data-fresh')) === 'stale',
      );
      assert(
        (await page.locator('[data-testid=budget-panel] [data-testid=stale-note]').innerText()).includes(
          'computed for an earlier version of this design',
        ),
        'stale in words',
      );
      await page.click('[data-testid=tab-timeline]');
      await waitFor(
        'the timeline emptied',
        async () => (await page.locator('[data-testid=timeline-lane]').count()) === 0,
      );
      await waitFor('no token on the canvas', async () => (await drawn(page)) <= 0);
      await shot(`${s.w}-edited`);

      // simulate again, then undo: the new timeline goes too
      await simulate(page);
      assert((await page.locator('[data-testid=timeline-lane]').count()) === 3, 'simulated again');
      await page.click('[data-testid=cmd-undo]');
      await waitFor(
        'the timeline emptied after undo',
        async () => (await page.locator('[data-testid=timeline-lane]').count()) === 0,
      );

      // another design: the budget is not shown at all
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('.react-flow__node');
      await page.click('[data-testid=tab-budget]');
      await page.click('[data-testid=budget-compute]');
      await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 2, 30_000);
      await page.click('[data-testid=open-gallery]');
      await page.click('[data-template=requeue-once] [data-testid=template-use]');
      await page.waitForSelector('.react-flow__node');
      await page.click('[data-testid=tab-budget]');
      await waitFor(
        'no budget of the other design',
        async () => (await page.locator('[data-testid=budget-row]').count()) === 0,
      );
      await shot(`${s.w}-switched`);
    }
  },
};

export const resultsRoomFlow: Flow = {
  name: 'results: the panel resizes by dragging, is remembered, and the trace and timeline fit',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await page.setViewportSize({ width: s.w, height: s.h });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('.react-flow__node');
      const before = await page
        .locator('[data-testid=bottom-panel]')
        .evaluate((el) => el.getBoundingClientRect().height);
      const bar = await page.locator('[data-testid=bottom-resizer]').boundingBox();
      assert(bar, 'the resizer is on screen');
      await page.mouse.move(bar.x + bar.width / 2, bar.y + 2);
      await page.mouse.down();
      await page.mouse.move(bar.x + bar.width / 2, bar.y - 120, { steps: 6 });
      await page.mouse.up();
      const after = await page
        .locator('[data-testid=bottom-panel]')
        .evaluate((el) => el.getBoundingClientRect().height);
      assert(after > before + 100, `dragging up grows the panel (${before} -> ${after})`);
      await page.reload();
      await page.waitForSelector('.react-flow__node');
      const reloaded = await page
        .locator('[data-testid=bottom-panel]')
        .evaluate((el) => el.getBoundingClientRect().height);
      assert(Math.abs(reloaded - after) <= 1, `the height is remembered across a reload (${after} -> ${reloaded})`);
      await simulate(page);
      assert((await overflowX(page, '[data-testid=timeline]')) <= 0, `the timeline fits ${s.w}x${s.h}`);
      await shot(`${s.w}-timeline`);
      await page.click('[data-testid=tab-trace]');
      assert((await overflowX(page, '[data-testid=trace-panel]')) <= 0, `the trace panel fits ${s.w}x${s.h}`);
      await shot(`${s.w}-trace`);
      // back to the default for the next size
      await page.evaluate(() => localStorage.removeItem('retry-studio.ui.v1'));
    }
  },
};

export const operateDefaultsFlow: Flow = {
  name: 'results: Operate takes the broker URL vhost, imports from the toolbar and browses in one click',
  broker: true,
  async run({ page, url, shot }) {
    const vhost = await makeVhost(B310.mgmt);
    try {
      for (const s of SIZES) {
        await page.setViewportSize({ width: s.w, height: s.h });
        await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
        await page.waitForSelector('.react-flow__node');
        await setBrokerUrl(page, `${B310.amqp}${encodeURIComponent(vhost)}`);
        await page.click('[data-testid=tab-operate]');
        assert(
          (await page.inputValue('[data-testid=operate-vhost]')) === '',
          'the vhost field is empty: the broker URL decides',
        );
        const shown = await page.getAttribute('[data-testid=operate-vhost]', 'placeholder');
        assert(shown?.includes(vhost), `the field shows the URL's vhost: ${shown}`);
        // Open / Import in the toolbar: a live vhost, imported by the Operate tab
        await page.click('[data-testid=open-toggle]');
        await shot(`${s.w}-open-menu`);
        await page.click('[data-testid=open-import-vhost]');
        const summary = await importedSummary(page);
        assert(summary.includes(`vhost “${vhost}”`), `imported the URL's vhost, not '/': ${summary}`);
        // one click reads the DLQ
        await page.click('[data-testid="operate-browse-shop.dlq"]');
        await waitFor(
          'the listing after one click',
          async () => (await page.locator('[data-testid=dlq-message]').count()) === 6,
          20_000,
        );
        // time and "redelivered" are not clipped: the row's last cell ends inside the list
        const fits = await page.locator('[data-testid=dlq-message] >> nth=0').evaluate((li) => {
          const row = li.querySelector('button')!;
          const last = row.lastElementChild!.getBoundingClientRect();
          return last.right <= row.getBoundingClientRect().right + 0.5 && row.scrollWidth <= row.clientWidth;
        });
        assert(fits, `the message row's time and redelivered columns show at ${s.w}x${s.h}`);
        await shot(`${s.w}-browsed`);
      }
    } finally {
      await mgmt(B310.mgmt, 'DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => undefined);
    }
  },
};

/** RabbitMQ definitions of a small retry topology: orders -> orders.q (DLX orders.retry) -> orders.wait (TTL 5000) -> back. */
function ordersDefinitions(): string {
  return JSON.stringify({
    rabbit_version: '3.10.8',
    exchanges: [
      { name: 'orders', vhost: '/', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
      {
        name: 'orders.retry',
        vhost: '/',
        type: 'direct',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    queues: [
      {
        name: 'orders.q',
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'orders.retry', 'x-dead-letter-routing-key': 'wait' },
      },
      {
        name: 'orders.wait',
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-message-ttl': 5000, 'x-dead-letter-exchange': 'orders', 'x-dead-letter-routing-key': 'task' },
      },
    ],
    bindings: [
      {
        source: 'orders',
        vhost: '/',
        destination: 'orders.q',
        destination_type: 'queue',
        routing_key: 'task',
        arguments: {},
      },
      {
        source: 'orders.retry',
        vhost: '/',
        destination: 'orders.wait',
        destination_type: 'queue',
        routing_key: 'wait',
        arguments: {},
      },
    ],
  });
}

export const openAndPlanFlow: Flow = {
  name: 'results: Open / Import a definitions file from the toolbar; the plan shows arguments, before and after; broker results stay with their design',
  broker: true,
  // a trace of this design is refused (400: its publisher deleted), and the panel says so
  expectedHttpErrors: ['400 POST /api/trace'],
  async run({ page, url, shot }) {
    const vhost = throwawayVhost('plan');
    try {
      for (const s of SIZES) {
        await blankStart(page, url, s);
        await openFile(page, { name: 'orders-definitions.json', text: ordersDefinitions() });
        // the size before left this same design open: wait for a fresh one (the import's own name after a blank page)
        await waitFor(
          'the imported design',
          async () =>
            (await page.inputValue('[data-testid=design-name]')) === 'orders-definitions' &&
            (await page.locator('[data-testid=node-queue]').count()) === 2,
        );
        assert((await page.locator('[data-testid=open-menu]').count()) === 0, 'the menu closes once the file is open');
        // a definitions file is scaffolded as a vhost import is: a publisher into its entry exchange (a
        // stand-in, folded into that exchange's '✉ 1' tab), a worker on its work queue
        assert(
          (await page.locator('[data-testid=node-publisher]').count()) === 0 &&
            (await page.locator('[data-testid=assumed-publishers][data-count="1"]').count()) === 1,
          'a publisher scaffolded for the entry exchange, folded into it',
        );
        assert(
          (await page.locator('[data-testid=node-consumer]').count()) === 1,
          'a worker scaffolded for the work queue',
        );

        await setBrokerUrl(page, B310.amqp);
        await page.fill('[data-testid=deploy-vhost]', vhost);
        await page.fill('[data-testid=deploy-prefix]', `p${s.w}.`);
        await page.click('[data-testid=broker-probe]');
        await page.waitForSelector('[data-testid=broker-probe-result]', { timeout: 20_000 });
        await page.click('[data-testid=broker-plan]');
        await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
        const waitArgs = await page
          .locator('[data-testid=plan-item][data-kind=queue][data-name="orders.wait"] [data-testid=plan-arguments]')
          .innerText();
        assert(
          waitArgs.includes('x-message-ttl 5000') && waitArgs.includes('x-dead-letter-exchange'),
          `the plan names the arguments it creates: ${waitArgs}`,
        );
        await page.click('[data-testid=broker-apply]');
        await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });

        // an edit: the plan and the deploy are marked stale, Apply waits for a new plan
        await editTtlOf(page, 'orders.wait', '9000');
        await page.click('[data-testid=tab-broker]');
        await waitFor(
          'the plan marked stale',
          async () => (await page.locator('[data-testid=plan-result]').getAttribute('data-fresh')) === 'stale',
        );
        assert(await page.isDisabled('[data-testid=broker-apply]'), 'Apply waits for a plan of this version');
        await shot(`${s.w}-plan-stale`);
        await page.click('[data-testid=broker-plan]');
        await waitFor(
          'a current plan',
          async () => (await page.locator('[data-testid=plan-result]').getAttribute('data-fresh')) === 'current',
          20_000,
        );
        const change = page.locator(
          '[data-testid=plan-item][data-name="orders.wait"] [data-testid=plan-change][data-field="arguments.x-message-ttl"]',
        );
        assert(
          (await change.locator('[data-testid=plan-change-before]').innerText()) === '5000',
          'before: the broker has 5000',
        );
        assert(
          (await change.locator('[data-testid=plan-change-after]').innerText()) === '9000',
          'after: the design says 9000',
        );
        assert((await overflowX(page, '[data-testid=side-panel] .overflow-auto')) <= 0, 'the plan fits the side panel');
        await page.locator('[data-testid=plan-item][data-name="orders.wait"]').scrollIntoViewIfNeeded();
        await shot(`${s.w}-plan-before-after`);

        // tear down, then open another design: nothing of this one shows
        await page.click('[data-testid=broker-teardown]');
        await page.waitForSelector('[data-testid=teardown-confirm]');
        await page.click('[data-testid=teardown-confirm-yes]');
        await page.waitForSelector('[data-testid=teardown-result]', { timeout: 30_000 });
        // torn down: a live trace is not offered until the design is applied again, and the tab says why
        await page.click('[data-testid=tab-trace]');
        assert(
          await page.locator('[data-testid=trace-start]').isDisabled(),
          'Start live trace is disabled after the teardown',
        );
        assert(
          (await page.locator('[data-testid=trace-panel]').innerText()).includes('Torn down at this broker target'),
          'the trace tab says it was torn down',
        );
        await page.click('[data-testid=open-gallery]');
        await page.locator('[data-testid=template-use]').first().click();
        await page.waitForSelector('.react-flow__node');
        await page.click('[data-testid=tab-broker]');
        for (const gone of [
          'teardown-result',
          'broker-probe-result',
          'plan-result',
          'deploy-result',
          'broker-error',
          'trace-error',
          'trace-comparison',
        ])
          assert(
            (await page.locator(`[data-testid=${gone}]`).count()) === 0,
            `${gone} of the other design is not shown`,
          );
        await shot(`${s.w}-other-design`);
      }
    } finally {
      await mgmt(B310.mgmt, 'DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => undefined);
    }
  },
};

async function editTtlOf(page: Page, queue: string, ttl: string): Promise<void> {
  await page.click('[data-testid=cmd-fitView]');
  await page.waitForTimeout(300);
  await page.click(`[data-testid=node-queue][data-name="${queue}"]`);
  await page.click('[data-testid=tab-inspect]');
  await page.fill('[data-testid=field-ttl]', ttl);
  await page.keyboard.press('Tab');
}

export const resultsFlows: Flow[] = [staleResultsFlow, resultsRoomFlow, operateDefaultsFlow, openAndPlanFlow];
