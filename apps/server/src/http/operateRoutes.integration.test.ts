/** The operate API over HTTP on both real brokers (each broker's management URL passed explicitly). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from '../operate/testing.js';
import { startTestServer, type TestServer } from './testing.js';
import { waitUntil } from '../testing/waitUntil.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv.close();
});

describe.each(TEST_BROKERS)('operate API on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });
  const at = (vhost: string) => ({ broker: broker.amqpUrl, managementUrl: broker.managementUrl, vhost });

  it('imports, reads depths, browses by cause, dry-runs and re-drives', async () => {
    v = await deadLetterVhost(broker, 'http');
    await v.deadLetter(5);
    const imp = await srv.post('/api/operate/import', at(v.vhost));
    expect(imp.status).toBe(200);
    expect(imp.body.roles).toEqual({ [ORDERS.work]: 'work', [ORDERS.dlq]: 'parking' });
    expect(imp.body.broker).not.toContain('guest:guest');

    const d = await srv.post('/api/operate/depths', at(v.vhost));
    expect(d.status).toBe(200);
    expect(d.body.queues.map((q: { name: string }) => q.name).sort()).toEqual([ORDERS.dlq, ORDERS.work]);

    const b = await srv.post('/api/operate/browse', { ...at(v.vhost), queue: ORDERS.dlq, limit: 10 });
    expect(b.status).toBe(200);
    expect(b.body.messages).toHaveLength(5);
    expect(b.body.groups).toEqual([expect.objectContaining({ queue: ORDERS.work, reason: 'rejected', count: 5 })]);
    expect(b.body.effect.message).toMatch(/redelivered/);

    const dry = await srv.post('/api/operate/redrive', { ...at(v.vhost), queue: ORDERS.dlq, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.plan.moved).toBe(5);

    const start = await srv.post('/api/operate/redrive', {
      ...at(v.vhost),
      queue: ORDERS.dlq,
      to: 'original',
      rate: 100,
    });
    expect(start.status).toBe(201);
    let p = start.body;
    await waitUntil(
      async () => {
        p = (await srv.get(`/api/operate/redrive/${start.body.id}`)).body;
        return p.status !== 'running' && p.status !== 'paused';
      },
      'the redrive job to end',
      { timeoutMs: 30_000, everyMs: 100 },
    );
    expect(p.skipped).toEqual({});
    expect(p).toMatchObject({ status: 'done', moved: 5, left: 0 });
    expect(await v.depth(ORDERS.work)).toBe(5);
  });

  it('answers bad input with the field named', async () => {
    v = await deadLetterVhost(broker, 'httpbad');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ queue: 'nope' }, 404, 'queue'],
      [{ queue: ORDERS.dlq, rate: 0 }, 400, 'rate'],
      [{ queue: ORDERS.dlq, limit: -1 }, 400, 'limit'],
      [{ queue: ORDERS.dlq, to: ':' }, 400, 'to'],
      [{ queue: ORDERS.dlq, filter: 'colour=red' }, 400, 'filter'],
      [{ queue: ORDERS.dlq, extra: 1 }, 400, 'extra'],
    ];
    for (const [body, status, field] of cases) {
      const r = await srv.post('/api/operate/redrive', { ...at(v.vhost), ...body });
      expect([r.status, r.body.field], JSON.stringify(body)).toEqual([status, field]);
    }
    const m = await srv.post('/api/operate/browse', {
      ...at(v.vhost),
      queue: ORDERS.dlq,
      managementUrl: 'http://10.1.2.3:15672',
    });
    expect([m.status, m.body.field]).toEqual([403, 'managementUrl']);
    const empty = await srv.post('/api/operate/redrive', { ...at(v.vhost), queue: ORDERS.dlq });
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ before: 0, moved: 0 });
  });
});
