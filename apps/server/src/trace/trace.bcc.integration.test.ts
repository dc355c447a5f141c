/**
 * A publish routed by BCC keys alone, live on both brokers: the broker strips BCC, so when the keys
 * bind several shards of the exchange's mirror each shard holds a copy of the one pass. The trace
 * must count it once (ShardPasses), route it by the BCC keys it published with (hopReporter),
 * balance, and match the prediction.
 */
import { describe, expect, it } from 'vitest';
import { bindQ, design, uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, deploy, waitDone } = useLiveServer();

describe.each(TEST_BROKERS)('BCC-only publishes, live on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };

  it('a pass copied into two shards of the mirror by BCC is observed once: balanced, as predicted', async () => {
    const d = design({
      name: 'bcc-shards',
      exchanges: [{ name: 'orders', type: 'direct', durable: true }],
      queues: ['a.q', 'b.q', 'c.q'].map((name) => ({ name, durable: true })),
      // three keys: three shards, and BCC a + b reaches two of them
      bindings: [bindQ('orders', 'a.q', 'a'), bindQ('orders', 'b.q', 'b'), bindQ('orders', 'c.q', 'c')],
      // one worker: two would race for the message's attempt numbers, which no prediction can know
      consumers: [{ id: 'wa', queue: 'a.q', behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] } }],
      publishers: [
        { id: 'p1', exchange: 'orders', routingKey: 'nobody', properties: { headers: { BCC: ['a', 'b'] } } },
      ],
    });
    const prefix = uniquePrefix('bcc');
    await deploy(d, prefix, on);
    const t = await srv.post('/api/trace', { design: d, prefix, messages: 5, ...on });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const summary = await waitDone(t.body.id, 60_000);
    expect(summary).toMatchObject({ state: 'complete', published: 5, inFlight: 0, dropped: 0, balanced: true });
    // one routed pass per publish, whatever the number of shards that held a copy of it, reaching both BCC queues
    expect(summary.eventCounts.routed).toBe(5);
    expect(summary.eventCounts.delivered).toBe(5);
    expect(summary.resting).toEqual({ 'b.q': 5 });
    const pred = await srv.get(`/api/trace/${t.body.id}/prediction`);
    expect(pred.body.comparison, JSON.stringify(pred.body.comparison.firstDifference)).toMatchObject({
      messagesCompared: 5,
      matching: 5,
    });
    expect(pred.body.comparison.firstDifference).toBeUndefined();
  });
});
