/**
 * RabbitMQ 4.3.6's answers on quorum delayed retry, re-measured against the core's model of them
 * (packages/topology-core/src/model/delayedRetry.ts), which validation, lint and the upgrade check
 * read: which delayed-retry-* policies the broker refuses and in what words, and what a quorum
 * queue runs with for x-delayed-retry-* arguments (the broker declares it whatever they hold; its
 * management API says what it runs: `delayed_retry`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AmqpTable } from '@retry-studio/topology-core/model';
import { delayedRetryPolicyRefusals, effectiveDelayedRetry } from '@retry-studio/topology-core/model';
import { parseAmqpUrl } from './amqpUrl.js';
import { ManagementClient } from './management.js';
import { openConnection } from './connection.js';
import { BROKER_43 } from '../testing/testBrokers.js';

const url = parseAmqpUrl(BROKER_43.amqpUrl);
const vhost = `rs-delayed-retry-${process.pid}-${Date.now()}`;
const m = new ManagementClient(url, { baseUrl: BROKER_43.managementUrl });
const auth = `Basic ${Buffer.from(`${url.username}:${url.password}`).toString('base64')}`;
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${BROKER_43.managementUrl}/api/${path}`, {
    ...init,
    headers: { authorization: auth, 'content-type': 'application/json' },
  });

/** the combinations measured (policy definitions); the same values as queue arguments below */
const CASES: readonly AmqpTable[] = [
  { 'delayed-retry-type': 'all' },
  { 'delayed-retry-type': 'failed' },
  { 'delayed-retry-type': 'returned', 'delayed-retry-max': 100 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 1000, 'delayed-retry-max': 500 },
  { 'delayed-retry-min': 1000, 'delayed-retry-max': 500 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': -1 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 0 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 1.5 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': '100' },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': -5 },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': 0 },
  { 'delayed-retry-type': 'bogus', 'delayed-retry-min': 100 },
  { 'delayed-retry-type': 'ALL', 'delayed-retry-min': 100 },
  { 'delayed-retry-min': 100 },
  { 'delayed-retry-max': 50 },
  { 'delayed-retry-type': 'disabled' },
  { 'delayed-retry-type': 'all', 'delayed-retry-min': 100 },
  { 'delayed-retry-type': 'returned', 'delayed-retry-min': 100, 'delayed-retry-max': 1000 },
];
const values = (d: AmqpTable) => ({
  type: d['delayed-retry-type'],
  min: d['delayed-retry-min'],
  max: d['delayed-retry-max'],
});
const asArguments = (d: AmqpTable): AmqpTable => Object.fromEntries(Object.entries(d).map(([k, v]) => [`x-${k}`, v]));

beforeAll(() => m.createVhost(vhost));
afterAll(() => m.deleteVhost(vhost));

describe('RabbitMQ 4.3.6: quorum delayed retry, as the core says it does', () => {
  it.each(CASES.map((d, i) => [JSON.stringify(d), d, i] as const))(
    'policy %s: refused exactly when the core says, in the words it quotes',
    async (_, definition, i) => {
      const name = `p${i}`;
      const r = await api(`policies/${encodeURIComponent(vhost)}/${name}`, {
        method: 'PUT',
        body: JSON.stringify({ pattern: `^${name}$`, 'apply-to': 'quorum_queues', definition }),
      });
      const body = r.status === 400 ? ((await r.json()) as { reason: string }).reason : '';
      await api(`policies/${encodeURIComponent(vhost)}/${name}`, { method: 'DELETE' });
      const refusals = delayedRetryPolicyRefusals(values(definition)).map((x) => x.reason);
      if (refusals.length === 0) expect(r.status, body).toBe(201);
      else {
        expect(r.status).toBe(400);
        // the broker names the first it finds: one of the core's reasons, word for word
        const said = /^Validation failed\n\n(.*)\n$/s.exec(body)?.[1];
        expect(refusals, body).toContain(said);
      }
    },
  );

  it('the same values as queue arguments: every quorum queue is declared, and runs with what the core says (management delayed_retry)', async () => {
    const conn = await openConnection({ ...url, vhost }, { purpose: 'apply' });
    try {
      const ch = await conn.createChannel();
      for (const [i, d] of CASES.entries())
        await ch.assertQueue(`q${i}`, { durable: true, arguments: { 'x-queue-type': 'quorum', ...asArguments(d) } });
      await ch.close();
    } finally {
      await conn.close();
    }
    const stated: string[] = [];
    const expected: string[] = [];
    for (const [i, d] of CASES.entries()) {
      // the queue's stats reach the management API after a while: wait for them, with a generous deadline
      const deadline = Date.now() + 60_000;
      let said: string | undefined;
      while (said === undefined && Date.now() < deadline) {
        const r = await api(`queues/${encodeURIComponent(vhost)}/q${i}`);
        said = r.ok ? ((await r.json()) as { delayed_retry?: string }).delayed_retry : undefined;
        if (said === undefined) await new Promise((res) => setTimeout(res, 500));
      }
      const e = effectiveDelayedRetry(values(d));
      stated.push(`${JSON.stringify(d)}: ${said}`);
      expected.push(`${JSON.stringify(d)}: ${e ? `${e.type} (min: ${e.minMs}ms, max: ${e.maxMs}ms)` : 'disabled'}`);
    }
    expect(stated).toEqual(expected);
  });
});
