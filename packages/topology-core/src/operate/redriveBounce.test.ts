import { describe, expect, it } from 'vitest';
import type { BrokerSnapshot } from './brokerSnapshot.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import { deadLetter, ordersSnapshot } from '../../testing/operateFixtures.js';
import { planRedrive, redriveContext, routingTopology, type RedriveTarget } from './redrive.js';
import { predictBounce, type DestinationState } from './redriveBounce.js';

function predict(snap: BrokerSnapshot, live: DestinationState[], n = 5, target: RedriveTarget = { kind: 'original' }) {
  const topo = routingTopology(snap);
  const ctx = redriveContext(topo, profileForBrokerVersion(snap.rabbitVersion));
  const plan = planRedrive({ messages: Array.from({ length: n }, (_, i) => deadLetter(i)), target }, ctx);
  return predictBounce(plan, topo, live, 'orders.dlq', ctx);
}

const withWork = (args: Record<string, unknown>, extra: Partial<BrokerSnapshot> = {}): BrokerSnapshot => {
  const s = ordersSnapshot('3.10.8', extra);
  return {
    ...s,
    queues: s.queues.map((q) =>
      q.name === 'orders.work' ? { ...q, arguments: { ...q.arguments, ...args } as never } : q,
    ),
  };
};

describe('predictBounce', () => {
  it('a TTL and no consumer, dead letters routed back to the source: they expire back', () => {
    expect(predict(withWork({ 'x-message-ttl': 1000 }), [{ name: 'orders.work', consumers: 0, depth: 0 }])).toEqual([
      {
        queue: 'orders.work',
        kind: 'expires-back',
        copies: 5,
        message: expect.stringContaining("expire and dead-letter back into 'orders.dlq' within 1000 ms"),
      },
    ]);
  });

  it('reads the TTL from a policy too', () => {
    const snap = ordersSnapshot('3.10.8', {
      policies: [
        { name: 'ttl', pattern: '^orders\\.work$', 'apply-to': 'queues', definition: { 'message-ttl': 2000 } },
      ],
    });
    expect(predict(snap, [{ name: 'orders.work', consumers: 0, depth: 0 }]).map((w) => w.kind)).toEqual([
      'expires-back',
    ]);
  });

  it('nobody consumes it: the copies wait there', () => {
    expect(predict(ordersSnapshot(), [{ name: 'orders.work', consumers: 0, depth: 0 }]).map((w) => w.kind)).toEqual([
      'no-consumer',
    ]);
  });

  it('at its x-max-length: the overflow is pushed out and dead-lettered back, or refused with reject-publish', () => {
    const live = [{ name: 'orders.work', consumers: 1, depth: 8 }];
    expect(predict(withWork({ 'x-max-length': 10 }), live)).toEqual([
      {
        queue: 'orders.work',
        kind: 'over-max-length',
        copies: 3,
        message: expect.stringContaining(
          "3 of the 5 copies would be pushed out (x-overflow drop-head) and dead-lettered back into 'orders.dlq'",
        ),
      },
    ]);
    expect(predict(withWork({ 'x-max-length': 10, 'x-overflow': 'reject-publish' }), live)[0]!.message).toContain(
      "refused (x-overflow reject-publish): they stay in 'orders.dlq'",
    );
  });

  it('a consumed queue with room, or a wait queue whose TTL leads on (not back): nothing to say', () => {
    expect(predict(withWork({ 'x-message-ttl': 1000 }), [{ name: 'orders.work', consumers: 2, depth: 0 }])).toEqual([]);
    expect(
      predict(ordersSnapshot(), [{ name: 'orders.wait', consumers: 0, depth: 0 }], 5, {
        kind: 'exchange',
        exchange: 'orders.retry',
        routingKey: 'wait',
      }),
    ).toEqual([]);
  });
});
