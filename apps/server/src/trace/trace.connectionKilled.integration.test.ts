/**
 * A trace whose connection is closed mid-run (from the management API, by its name
 * `retry-studio:trace:<id>`: this trace's only) reconnects, re-attaches, and ends with what the
 * broker holds: every message parked, none left "in flight". Before, one redelivered message was
 * lost track of: the trace waited its whole duration (300 s), then said `complete`, balanced, 1 in
 * flight, while the broker had parked all 2,000.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManagementClient, openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import { retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const { srv, deploy, waitDone, onCleanup } = useLiveServer({ afterTimeoutMs: 180_000 });
const admin = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
const VHOSTS = `rs-bounds-trace-killed-${randomBytes(3).toString('hex')}`;

/** the broker's exact count of a queue's messages (a passive declare) */
async function held(vhost: string, queue: string): Promise<number> {
  const conn = await openConnection(withVhost(parseAmqpUrl(BROKER_310.amqpUrl), vhost), { purpose: 'probe' });
  try {
    return (await (await conn.createChannel()).checkQueue(queue)).messageCount;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

describe('a trace whose connection is closed mid-run', () => {
  it.each([
    { run: '300/s, prefetch 50, closed after 1,200 published', prefetch: 50, closeAt: 1200, ratePerSecond: 300 },
    { run: '200/s, prefetch 1, closed after 1,000 published', prefetch: 1, closeAt: 1000, ratePerSecond: 200 },
  ])(
    'reconnects and ends complete with every message where the broker has it: $run',
    async (c) => {
      const vhost = `${VHOSTS}-${c.prefetch}`;
      // deleted after the deployment is torn down (cleanups run last registered first)
      onCleanup(() => admin.deleteVhost(vhost));
      const prefix = uniquePrefix('killed');
      // every message fails, waits out 50 ms in the retry queue once, and is republished to parking;
      // failing always: a message processed again after the loss is parked too
      const base = retryLoopDesign('trace-killed', { ttl: 50, maxRetries: 1 });
      const d = {
        ...base,
        consumers: base.consumers.map((w) => ({
          ...w,
          prefetch: c.prefetch,
          behaviour: { ...w.behaviour, failure: { kind: 'always' as const } },
        })),
      };
      await deploy(d, prefix, { vhost });
      const messages = 2000;
      const t = await srv.post('/api/trace', {
        design: d,
        prefix,
        vhost,
        messages,
        ratePerSecond: c.ratePerSecond,
        durationMs: 120_000,
      });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      const name = `retry-studio:trace:${t.body.id}`;
      // the management API lists a new connection within its stats interval: found first, closed once far enough
      let connection = '';
      await waitUntil(
        async () => {
          connection =
            (await admin.listConnections()).find((x) => x.client_properties?.connection_name === name)?.name ?? '';
          return connection !== '';
        },
        `the connection ${name} listed by the management API`,
        { timeoutMs: 30_000, everyMs: 200 },
      );
      await waitUntil(
        async () => (await srv.get(`/api/trace/${t.body.id}`)).body.published >= c.closeAt,
        `${c.closeAt} published`,
        { timeoutMs: 30_000, everyMs: 20 },
      );
      await admin.closeConnection(connection);
      const closedAt = Date.now();
      const summary = await waitDone(t.body.id, 120_000);
      const endedAfterS = (Date.now() - closedAt) / 1000;
      const parked = await held(vhost, `${prefix}parking.q`);
      const facts = JSON.stringify({ endedAfterS, parkedOnBroker: parked, summary });
      expect(summary.reconnects, facts).toBeGreaterThanOrEqual(1);
      expect(summary, facts).toMatchObject({
        state: 'complete',
        published: messages,
        parked: messages,
        inFlight: 0,
        dropped: 0,
        balanced: true,
      });
      // a publish whose confirm went with the connection is sent again: if the first got through, the
      // message is parked twice; the trace counts the message once and each copy where it rests
      expect(summary.resting['parking.q'], facts).toBe(parked);
      expect(parked, facts).toBeGreaterThanOrEqual(messages);
      // it ends once settled, not at its duration (120 s)
      expect(summary.endedWaitingFor, facts).toBeUndefined();
      expect(endedAfterS, facts).toBeLessThan(60);
    },
    240_000,
  );
});
