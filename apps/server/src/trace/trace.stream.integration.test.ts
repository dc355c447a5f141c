/**
 * Dead letters parked in a stream, traced live on both brokers. 4.3 keeps a dead letter routed to
 * a stream; 3.10.8 drops it (a stream is not a dead-letter target there). A stream's passive declare
 * counts 0, so the trace reads its depth from the management API and never takes the stream's
 * "0" for dead letters the broker dropped.
 */
import { describe, expect, it } from 'vitest';
import { bindQ, design, uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, deploy, waitDone } = useLiveServer();

describe.each(TEST_BROKERS)('a stream as the parking lot, live on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };

  it.each(['classic', 'quorum'] as const)(
    'a %s work queue dead-letters into a stream: parked on 4.3, dropped on 3.10, as predicted',
    async (type) => {
      const d = {
        ...design({
          name: `stream-parking-${type}`,
          exchanges: [{ name: 'dlx', type: 'fanout', durable: true }],
          queues: [
            {
              name: 'work.q',
              durable: true,
              arguments: {
                'x-dead-letter-exchange': 'dlx',
                ...(type === 'quorum' ? { 'x-queue-type': 'quorum' } : {}),
              },
            },
            { name: 'parked.s', durable: true, arguments: { 'x-queue-type': 'stream' } },
          ],
          bindings: [bindQ('dlx', 'parked.s')],
          consumers: [
            {
              id: 'w',
              queue: 'work.q',
              behaviour: { kind: 'worker', failure: { kind: 'always' }, onFailure: [{ then: { kind: 'reject' } }] },
            },
          ],
          publishers: [{ id: 'p1', exchange: '', routingKey: 'work.q' }],
        }),
        profile: b.name,
      };
      const prefix = uniquePrefix(`stream${type}`);
      await deploy(d, prefix, on);
      const t = await srv.post('/api/trace', { design: d, prefix, messages: 3, ...on });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      const summary = await waitDone(t.body.id, 60_000);
      const fates = b.name === '3.10' ? { parked: 0, dropped: 3 } : { parked: 3, dropped: 0 };
      expect(summary, JSON.stringify(summary)).toMatchObject({
        state: 'complete',
        published: 3,
        acked: 0,
        ...fates,
        inFlight: 0,
        balanced: true,
      });
      expect(summary.deadLettersDropped).toBeUndefined();
      const pred = await srv.get(`/api/trace/${t.body.id}/prediction`);
      expect(pred.body.comparison, JSON.stringify(pred.body.comparison.firstDifference)).toMatchObject({
        messagesCompared: 3,
        matching: 3,
      });
    },
  );
  it('a message with its own expiration rests in a stream (a stream applies no expiration), as predicted', async () => {
    const d = {
      ...design({
        name: 'stream-expiration',
        exchanges: [],
        queues: [{ name: 'log.s', durable: true, arguments: { 'x-queue-type': 'stream' } }],
        bindings: [],
        consumers: [],
        publishers: [{ id: 'p1', exchange: '', routingKey: 'log.s', properties: { expiration: '300' } }],
      }),
      profile: b.name,
    };
    const prefix = uniquePrefix('streamexp');
    await deploy(d, prefix, on);
    const t = await srv.post('/api/trace', { design: d, prefix, messages: 2, ...on });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const summary = await waitDone(t.body.id, 30_000);
    expect(summary, JSON.stringify(summary)).toMatchObject({
      state: 'complete',
      published: 2,
      parked: 2,
      dropped: 0,
      inFlight: 0,
      balanced: true,
    });
    expect(summary.resting).toEqual({ 'log.s': 2 });
    expect(summary.eventCounts.expired).toBeUndefined();
    const pred = await srv.get(`/api/trace/${t.body.id}/prediction`);
    expect(pred.body.comparison, JSON.stringify(pred.body.comparison.firstDifference)).toMatchObject({
      messagesCompared: 2,
      matching: 2,
    });
  });

  it('a stream keeps what its reader acked: parked in it (not acked), and the trace settles with the reader attached', async () => {
    const d = {
      ...design({
        name: 'stream-read',
        exchanges: [],
        queues: [{ name: 'events.s', durable: true, arguments: { 'x-queue-type': 'stream' } }],
        bindings: [],
        consumers: [
          {
            id: 'reader',
            queue: 'events.s',
            streamOffset: 'first',
            behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'ack' } }] },
          },
        ],
        publishers: [{ id: 'p1', exchange: '', routingKey: 'events.s' }],
      }),
      profile: b.name,
    };
    const prefix = uniquePrefix('streamread');
    await deploy(d, prefix, on);
    const t = await srv.post('/api/trace', { design: d, prefix, messages: 3, ...on });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const summary = await waitDone(t.body.id, 30_000);
    expect(summary, JSON.stringify(summary)).toMatchObject({
      state: 'complete',
      published: 3,
      acked: 0,
      parked: 3,
      dropped: 0,
      inFlight: 0,
      balanced: true,
    });
    expect(summary.eventCounts.acked).toBe(3);
    expect(summary.resting).toEqual({ 'events.s': 3 });
  });
});
