/**
 * Canary and fix-then-retry re-drives in the browser (Dead letters tab), on both brokers. The
 * vhosts are made through the management API. The failing "consumer" is the broker itself: a
 * queue whose TTL sends every copy back to the DLQ; the succeeding one is this flow taking
 * shop.ship's messages through the management API (get, ack).
 */
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';

const BROKERS = [
  { name: '3.10', amqp: 'amqp://guest:guest@127.0.0.1:5672/', mgmt: 'http://127.0.0.1:15672' },
  { name: '4.3', amqp: 'amqp://guest:guest@127.0.0.1:5673/', mgmt: 'http://127.0.0.1:15673' },
] as const;
type Broker = (typeof BROKERS)[number];

const AUTH = {
  authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
  'content-type': 'application/json',
};

async function mgmt(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
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

const depth = async (b: Broker, v: string, q: string): Promise<number> =>
  ((await mgmt(b.mgmt, 'GET', `/api/queues/${v}/${q}`)) as { messages?: number }).messages ?? -1;

/**
 * shop -> shop.pay (TTL 300 ms, nobody consumes: every copy expires back) and shop.ship (taken
 * by the flow), both dead-lettering to shop.dlx -> shop.dlq. `pay` and `ship` messages expire
 * into the DLQ first (a 1 ms expiration), JSON bodies with a message id.
 */
async function makeVhost(b: Broker, pay: number, ship: number): Promise<string> {
  const vhost = throwawayVhost('canary');
  const v = encodeURIComponent(vhost);
  await mgmt(b.mgmt, 'PUT', `/api/vhosts/${v}`, {});
  await mgmt(b.mgmt, 'PUT', `/api/permissions/${v}/guest`, { configure: '.*', write: '.*', read: '.*' });
  await mgmt(b.mgmt, 'PUT', `/api/exchanges/${v}/shop`, { type: 'topic', durable: true });
  await mgmt(b.mgmt, 'PUT', `/api/exchanges/${v}/shop.dlx`, { type: 'fanout', durable: true });
  await mgmt(b.mgmt, 'PUT', `/api/queues/${v}/shop.pay`, {
    durable: true,
    arguments: { 'x-dead-letter-exchange': 'shop.dlx', 'x-message-ttl': 300 },
  });
  await mgmt(b.mgmt, 'PUT', `/api/queues/${v}/shop.ship`, {
    durable: true,
    arguments: { 'x-dead-letter-exchange': 'shop.dlx' },
  });
  await mgmt(b.mgmt, 'PUT', `/api/queues/${v}/shop.dlq`, { durable: true, arguments: {} });
  await mgmt(b.mgmt, 'POST', `/api/bindings/${v}/e/shop/q/shop.pay`, { routing_key: 'pay.*' });
  await mgmt(b.mgmt, 'POST', `/api/bindings/${v}/e/shop/q/shop.ship`, { routing_key: 'ship.*' });
  await mgmt(b.mgmt, 'POST', `/api/bindings/${v}/e/shop.dlx/q/shop.dlq`, { routing_key: '' });
  const publish = (rk: string, i: number) =>
    mgmt(b.mgmt, 'POST', `/api/exchanges/${v}/shop/publish`, {
      routing_key: rk,
      payload: JSON.stringify({ order: i, amount: '12' }),
      payload_encoding: 'string',
      properties: { expiration: '1', message_id: `${rk}-${i}`, content_type: 'application/json' },
    });
  for (let i = 0; i < pay; i++) await publish('pay.card', i);
  for (let i = 0; i < ship; i++) await publish('ship.parcel', i);
  await waitFor(
    'the messages to expire into shop.dlq',
    async () => (await depth(b, v, 'shop.dlq')) === pay + ship,
    30_000,
  );
  return vhost;
}

async function openDeadLetters(page: Page, url: string, b: Broker, vhost: string, count: number): Promise<void> {
  await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
  await page.waitForSelector('.react-flow__node');
  await page.click('[data-testid=tab-broker]');
  await page.click('[data-testid=broker-url]');
  await page.fill('[data-testid=broker-url]', b.amqp);
  await page.click('[data-testid=tab-operate]');
  await page.fill('[data-testid=operate-vhost]', vhost);
  await page.click('[data-testid=operate-import]');
  await waitFor(
    'the import',
    async () => {
      if (await page.locator('[data-testid=operate-error]').count())
        throw new Error(await page.locator('[data-testid=operate-error]').innerText());
      return (await page.locator('[data-testid=operate-imported]').count()) > 0;
    },
    20_000,
  );
  await page.click('[data-testid="operate-browse-shop.dlq"]');
  await page.click('[data-testid=dlq-browse]');
  await waitFor(
    `the listing of ${count}`,
    async () => (await page.locator('[data-testid=dlq-message]').count()) === count,
    20_000,
  );
}

const group = (page: Page, key: string) => page.locator(`[data-testid=dlq-group][data-key="${key}"]`);

async function canaryOn(page: Page, url: string, b: Broker, shot: (n: string) => Promise<void>): Promise<void> {
  const vhost = await makeVhost(b, 10, 12);
  const v = encodeURIComponent(vhost);
  // the succeeding consumer: takes whatever reaches shop.ship
  let taking = true;
  let taken = 0;
  const consumer = (async () => {
    while (taking) {
      const got = (await mgmt(b.mgmt, 'POST', `/api/queues/${v}/shop.ship/get`, {
        count: 50,
        ackmode: 'ack_requeue_false',
        encoding: 'auto',
      }).catch(() => [])) as unknown[];
      taken += got.length;
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  try {
    await openDeadLetters(page, url, b, vhost, 22);
    // the failing group: the dry run already says they would come back
    await group(page, 'shop.pay|expired|').click();
    await page.click('[data-testid=redrive-dry-run]');
    await waitFor('the dry run', async () => (await page.locator('[data-testid=redrive-plan]').count()) > 0, 20_000);
    const bounce = await page.locator('[data-testid=redrive-bounce]').innerText();
    assert(
      /x-message-ttl 300 ms and no consumer: the 10 copies expire and dead-letter back into 'shop\.dlq'/.test(bounce),
      `bounce-back predicted: ${bounce}`,
    );
    await page.fill('[data-testid=canary-size]', '2');
    await page.fill('[data-testid=canary-wait]', '1500');
    await page.fill('[data-testid=canary-max-refail]', '0');
    await page.click('[data-testid=redrive-start]');
    await waitFor(
      'the canary to stop',
      async () => (await page.locator('[data-testid=canary-status]').getAttribute('data-status')) === 'stopped',
      30_000,
    );
    const st = page.locator('[data-testid=canary-status]');
    assert(
      (await st.getAttribute('data-batches')) === '1' && (await st.getAttribute('data-back')) === '2',
      `stopped after batch 1 with 2 back: ${await st.innerText()}`,
    );
    const returned = await page.locator('[data-testid=canary-returned]').innerText();
    assert(
      /pay\.card-0: died again in shop\.pay \(expired\)/.test(returned),
      `the returned copies are listed with their new death: ${returned}`,
    );
    // the listing refreshed after the run: all 22 there (8 untouched, 2 back, 12 ship)
    await waitFor(
      'the listing to refresh',
      async () =>
        (await page.locator('[data-testid=dlq-message]').count()) === 22 &&
        (await group(page, 'shop.pay|expired|').getAttribute('data-count')) === '10',
      20_000,
    );
    await st.scrollIntoViewIfNeeded();
    await shot(`${b.name}-canary-stopped`);

    // the succeeding group moves whole, in growing batches
    await group(page, 'shop.ship|expired|').click();
    await page.fill('[data-testid=canary-wait]', '600');
    const stopped = await page.locator('[data-testid=canary-status]').getAttribute('data-id');
    await page.click('[data-testid=redrive-start]');
    await waitFor(
      'the canary to finish',
      async () => {
        const st = page.locator('[data-testid=canary-status]');
        return (await st.getAttribute('data-id')) !== stopped && (await st.getAttribute('data-status')) === 'done';
      },
      60_000,
    );
    const done = page.locator('[data-testid=canary-status]');
    assert((await done.getAttribute('data-moved')) === '12', `moved 12: ${await done.innerText()}`);
    assert(
      (await page.locator('[data-testid=canary-batch]').count()) === 3,
      `batches 2, 4, 6: ${await done.innerText()}`,
    );
    await waitFor(
      'the listing to show the 10 pay messages only',
      async () => (await page.locator('[data-testid=dlq-message]').count()) === 10,
      20_000,
    );
    await waitFor('the consumer to have taken 12', async () => taken === 12, 10_000);
    await done.scrollIntoViewIfNeeded();
    await shot(`${b.name}-canary-done`);
  } finally {
    taking = false;
    await consumer;
    await mgmt(b.mgmt, 'DELETE', `/api/vhosts/${v}`).catch(() => undefined);
  }
}

async function editOn(page: Page, url: string, b: Broker, shot: (n: string) => Promise<void>): Promise<void> {
  const vhost = await makeVhost(b, 0, 5);
  const v = encodeURIComponent(vhost);
  try {
    await openDeadLetters(page, url, b, vhost, 5);
    // one message: its body edited as JSON, re-driven alone
    await page.locator('[data-testid=dlq-message]').first().click();
    await page.click('[data-testid=dlq-edit-message]');
    await page.fill('[data-testid=redrive-edit-body]', '{"order": 0, "amount": ');
    await waitFor('the JSON error', async () => (await page.locator('[data-testid=redrive-edit-problem]').count()) > 0);
    assert(
      await page.locator('[data-testid=redrive-start]').isDisabled(),
      're-drive is disabled while the body is not JSON',
    );
    await page.fill('[data-testid=redrive-edit-body]', '{"order": 0, "amount": 12, "fixed": "by hand"}');
    await page.fill('[data-testid=redrive-edit-headers]', 'x-fixed-by=ops');
    await shot(`${b.name}-edit-one`);
    await page.click('[data-testid=redrive-start]');
    await waitFor(
      'the one re-drive',
      async () => (await page.locator('[data-testid=redrive-status]').getAttribute('data-status')) === 'done',
      30_000,
    );
    assert((await page.locator('[data-testid=redrive-status]').getAttribute('data-moved')) === '1', 'moved 1');
    await waitFor(
      'the listing to refresh to 4',
      async () => (await page.locator('[data-testid=dlq-message]').count()) === 4,
      20_000,
    );

    // the rest of the group: a JSON patch, checked and previewed
    await page.click('[data-testid=redrive-edit-group]');
    await group(page, 'shop.ship|expired|').click();
    await page.fill('[data-testid=redrive-edit-body]', '[{"op":"frob","path":"/amount"}]');
    const problem = await page.locator('[data-testid=redrive-edit-problem]').first().innerText();
    assert(/patch\[0\]\.op/.test(problem), `the bad operation is named: ${problem}`);
    await page.fill('[data-testid=redrive-edit-body]', '[{"op":"replace","path":"/amount","value":12}]');
    const preview = await page.locator('[data-testid=redrive-edit-preview]').innerText();
    assert(preview.includes('"amount":12'), `preview: ${preview}`);
    await page.locator('[data-testid=redrive-edit-preview]').scrollIntoViewIfNeeded();
    await shot(`${b.name}-edit-group`);
    const first = await page.locator('[data-testid=redrive-status]').getAttribute('data-id');
    await page.click('[data-testid=redrive-start]');
    await waitFor(
      'the group re-drive',
      async () => {
        const st = page.locator('[data-testid=redrive-status]');
        return (await st.getAttribute('data-id')) !== first && (await st.getAttribute('data-status')) === 'done';
      },
      30_000,
    );
    assert(
      (await page.locator('[data-testid=redrive-status]').getAttribute('data-moved')) === '4',
      `moved 4: ${await page.locator('[data-testid=redrive-status]').innerText()}`,
    );
    await waitFor(
      'an empty listing',
      async () => (await page.locator('[data-testid=dlq-message]').count()) === 0,
      20_000,
    );

    // at the destination: each order once, fixed, marked
    const got = (await mgmt(b.mgmt, 'POST', `/api/queues/${v}/shop.ship/get`, {
      count: 50,
      ackmode: 'ack_requeue_false',
      encoding: 'auto',
    })) as { payload: string; properties: { headers?: Record<string, unknown> } }[];
    const orders = got
      .map((m) => JSON.parse(m.payload) as { order: number; amount: unknown })
      .sort((a, c) => a.order - c.order);
    assert(
      orders.length === 5 && orders.every((o, i) => o.order === i && o.amount === 12),
      `each order once, amount fixed: ${JSON.stringify(orders)}`,
    );
    assert(
      got.every((m) => typeof m.properties.headers?.['x-redrive-edited'] === 'string'),
      'every copy says it was edited',
    );
  } finally {
    await mgmt(b.mgmt, 'DELETE', `/api/vhosts/${v}`).catch(() => undefined);
  }
}

export const canaryRedriveFlow: Flow = {
  name: 'operate: canary re-drive stops on a failing group, moves a succeeding one (3.10 and 4.3)',
  broker: true,
  async run({ page, url, shot }) {
    // looked at in both sizes: 1280x800 on 3.10, 1440x900 on 4.3
    for (const b of BROKERS) {
      await page.setViewportSize(b.name === '3.10' ? { width: 1280, height: 800 } : { width: 1440, height: 900 });
      await canaryOn(page, url, b, shot);
    }
  },
};

export const editRedriveFlow: Flow = {
  name: 'operate: fix then retry, one message and a group (3.10 and 4.3)',
  broker: true,
  async run({ page, url, shot }) {
    for (const b of BROKERS) {
      await page.setViewportSize(b.name === '3.10' ? { width: 1440, height: 900 } : { width: 1280, height: 800 });
      await editOn(page, url, b, shot);
    }
  },
};
