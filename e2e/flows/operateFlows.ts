/**
 * Operate a live broker in the browser, on both brokers (3.10 on 5672, 4.3 on 5673): import a
 * vhost, see the depths on the queue nodes, browse the DLQ grouped by cause, dry-run and
 * re-drive it back to where the messages died. The vhost is made through the management API:
 * messages published with a 1 ms expiration dead-letter by themselves (reason `expired`).
 */
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';

const BROKERS = [
  { name: '3.10', amqp: 'amqp://guest:guest@127.0.0.1:5672/', mgmt: 'http://127.0.0.1:15672' },
  { name: '4.3', amqp: 'amqp://guest:guest@127.0.0.1:5673/', mgmt: 'http://127.0.0.1:15673' },
] as const;

const AUTH = {
  authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
  'content-type': 'application/json',
};

export async function mgmt(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(base + path, {
    method,
    headers: AUTH,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok && !(method === 'DELETE' && res.status === 404))
    throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const t = await res.text();
  return t ? JSON.parse(t) : undefined;
}

/** shop: a topic exchange to shop.work (DLX shop.dlx -> shop.dlq); 6 messages expire into the DLQ, 4 of them with an exception header. */
export async function makeVhost(base: string): Promise<string> {
  const vhost = throwawayVhost('operate');
  const v = encodeURIComponent(vhost);
  await mgmt(base, 'PUT', `/api/vhosts/${v}`, {});
  await mgmt(base, 'PUT', `/api/permissions/${v}/guest`, { configure: '.*', write: '.*', read: '.*' });
  await mgmt(base, 'PUT', `/api/exchanges/${v}/shop`, { type: 'topic', durable: true });
  await mgmt(base, 'PUT', `/api/exchanges/${v}/shop.dlx`, { type: 'fanout', durable: true });
  await mgmt(base, 'PUT', `/api/queues/${v}/shop.work`, {
    durable: true,
    arguments: { 'x-dead-letter-exchange': 'shop.dlx' },
  });
  await mgmt(base, 'PUT', `/api/queues/${v}/shop.dlq`, { durable: true, arguments: {} });
  await mgmt(base, 'POST', `/api/bindings/${v}/e/shop/q/shop.work`, { routing_key: 'order.*' });
  await mgmt(base, 'POST', `/api/bindings/${v}/e/shop.dlx/q/shop.dlq`, { routing_key: '' });
  for (let i = 0; i < 6; i++) {
    const headers = i < 4 ? { 'x-exception-message': 'PaymentDeclined' } : {};
    await mgmt(base, 'POST', `/api/exchanges/${v}/shop/publish`, {
      routing_key: 'order.paid',
      payload: `order-${i}`,
      payload_encoding: 'string',
      properties: { expiration: '1', headers },
    });
  }
  await waitFor(
    'the messages to expire into shop.dlq',
    async () => ((await mgmt(base, 'GET', `/api/queues/${v}/shop.dlq`)) as { messages?: number }).messages === 6,
    30_000,
  );
  return vhost;
}

/** Waits for the Operate tab's import (its error thrown as is) and returns its summary line. */
export async function importedSummary(page: Page): Promise<string> {
  await waitFor(
    'the import',
    async () => {
      if (await page.locator('[data-testid=operate-error]').count())
        throw new Error(await page.locator('[data-testid=operate-error]').innerText());
      return (await page.locator('[data-testid=operate-imported]').count()) > 0;
    },
    20_000,
  );
  return page.locator('[data-testid=operate-imported]').innerText();
}

async function operateOn(
  page: Page,
  b: (typeof BROKERS)[number],
  vhost: string,
  shot: (n: string) => Promise<void>,
): Promise<void> {
  await page.click('[data-testid=tab-broker]');
  // focus first: the field swaps its masked text for the real URL on focus
  await page.click('[data-testid=broker-url]');
  await page.fill('[data-testid=broker-url]', b.amqp);
  await page.click('[data-testid=tab-operate]');
  await page.fill('[data-testid=operate-vhost]', vhost);
  await page.click('[data-testid=operate-import]');
  const summary = await importedSummary(page);
  assert(summary.includes(`RabbitMQ ${b.name}`) && summary.includes('1 workers'), `import summary: ${summary}`);
  await waitFor(
    'the imported queues on the canvas',
    async () => (await page.locator('[data-testid=node-queue]').count()) === 2,
  );

  // live depths: the DLQ node shows 6 ready
  const toggle = page.locator('[data-testid=depths-toggle]');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await waitFor(
    'a depth badge of 6 on shop.dlq',
    async () =>
      (await page
        .locator('[data-testid=node-queue][data-name="shop.dlq"] [data-testid=depth-badge]')
        .getAttribute('data-ready')
        .catch(() => null)) === '6',
    30_000,
  );
  await shot(`${b.name}-depths`);

  // browse from "where messages pile up"
  // one click: Browse reads the queue (issue 26)
  await page.click('[data-testid="operate-browse-shop.dlq"]');
  await waitFor('the listing', async () => (await page.locator('[data-testid=dlq-message]').count()) === 6, 20_000);
  const effect = await page.locator('[data-testid=dlq-effect]').innerText();
  assert(/redelivered/.test(effect), `what looking changes is said: ${effect}`);
  const groups = await page
    .locator('[data-testid=dlq-group]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-key')}=${e.getAttribute('data-count')}`));
  assert(
    groups.join(',') === 'shop.work|expired|PaymentDeclined=4,shop.work|expired|=2',
    `grouped by cause: ${groups.join(',')}`,
  );
  await page.locator('[data-testid=dlq-message]').first().click();
  await shot(`${b.name}-browse`);

  // re-drive the PaymentDeclined group: dry run first, then for real
  await page.locator('[data-testid=dlq-group]').first().click();
  await page.click('[data-testid=redrive-dry-run]');
  await waitFor('the dry run', async () => (await page.locator('[data-testid=redrive-plan]').count()) > 0, 20_000);
  const plan = await page.locator('[data-testid=redrive-plan]').innerText();
  assert(
    plan.includes('4 would move') && plan.includes('shop:order.paid -> shop.work') && plan.includes('2 filtered out'),
    `dry run: ${plan}`,
  );
  await page.click('[data-testid=redrive-start]');
  await waitFor(
    'the re-drive to finish',
    async () => (await page.locator('[data-testid=redrive-status]').getAttribute('data-status')) === 'done',
    30_000,
  );
  const moved = await page.locator('[data-testid=redrive-status]').getAttribute('data-moved');
  assert(moved === '4', `moved 4 (got ${moved})`);
  await waitFor(
    'the work queue badge to show 4',
    async () =>
      (await page
        .locator('[data-testid=node-queue][data-name="shop.work"] [data-testid=depth-badge]')
        .getAttribute('data-ready')
        .catch(() => null)) === '4',
    30_000,
  );
  await shot(`${b.name}-redriven`);
  // stop polling before the vhost goes
  await page.click('[data-testid=tab-operate]');
  await page.click('[data-testid=depths-toggle]');
}

export const operateFlow: Flow = {
  name: 'operate: import a broker vhost, depths, browse a DLQ by cause, re-drive (3.10 and 4.3)',
  broker: true,
  async run({ page, url, shot }) {
    for (const b of BROKERS) {
      const vhost = await makeVhost(b.mgmt);
      try {
        // into the designer (a first visit opens the gallery); the import replaces the design
        await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
        await page.waitForSelector('.react-flow__node');
        await operateOn(page, b, vhost, shot);
      } finally {
        await mgmt(b.mgmt, 'DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => undefined);
      }
    }
  },
};

/** 600 queues in 30 services: the import opens one group at a time, and switching groups redraws. */
export const operateLargeFlow: Flow = {
  name: 'operate: a large vhost imports as groups by name prefix',
  broker: true,
  async run({ page, url, shot }) {
    const b = BROKERS[0];
    const vhost = throwawayVhost('large');
    const v = encodeURIComponent(vhost);
    await mgmt(b.mgmt, 'PUT', `/api/vhosts/${v}`, {});
    await mgmt(b.mgmt, 'PUT', `/api/permissions/${v}/guest`, { configure: '.*', write: '.*', read: '.*' });
    const queues = [];
    const exchanges = [];
    const bindings = [];
    for (let s = 0; s < 30; s++) {
      exchanges.push({
        name: `svc${s}`,
        type: 'topic',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      });
      for (let w = 0; w < 20; w++) {
        queues.push({ name: `svc${s}.q${w}`, durable: true, auto_delete: false, arguments: {} });
        bindings.push({
          source: `svc${s}`,
          destination: `svc${s}.q${w}`,
          destination_type: 'queue',
          routing_key: `k${w}`,
          arguments: {},
        });
      }
    }
    try {
      await mgmt(b.mgmt, 'POST', `/api/definitions/${v}`, { exchanges, queues, bindings });
      await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
      await page.waitForSelector('.react-flow__node');
      await page.click('[data-testid=tab-operate]');
      await page.fill('[data-testid=operate-vhost]', vhost);
      await page.click('[data-testid=operate-import]');
      await waitFor(
        'the group list',
        async () => (await page.locator('[data-testid=operate-group]').count()) === 30,
        30_000,
      );
      await waitFor(
        'one group drawn',
        async () => (await page.locator('[data-testid=node-queue]').count()) === 20,
        10_000,
      );
      await page.click('[data-testid=operate-group][data-key=svc7]');
      await waitFor(
        'svc7 drawn',
        async () => (await page.locator('[data-testid=node-queue][data-name="svc7.q3"]').count()) === 1,
        10_000,
      );
      assert((await page.locator('[data-testid=node-queue]').count()) === 20, 'only the group is drawn');
      await shot('groups');
    } finally {
      await mgmt(b.mgmt, 'DELETE', `/api/vhosts/${v}`).catch(() => undefined);
    }
  },
};
