import { describe, expect, it } from 'vitest';
import { buildTemplate, type Design, type QueueDef } from '@retry-studio/topology-core';
import { atMostOnceDeadLetterSources, deadLetterShortfall } from './deadLetterShortfall.js';

function quorumRetry(strategy?: { atLeastOnce: boolean; overflow?: string }): Design {
  const built = buildTemplate('quorum-delayed-retry', { deliveryLimit: 2, minDelayMs: 50, maxDelayMs: 100 });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  const d = built.template.design;
  const withStrategy = (q: QueueDef): QueueDef =>
    strategy && q.arguments?.['x-dead-letter-exchange'] !== undefined
      ? { ...q, arguments: { ...q.arguments, 'x-dead-letter-strategy': strategy.atLeastOnce ? 'at-least-once' : 'at-most-once', ...(strategy.overflow ? { 'x-overflow': strategy.overflow } : {}) } }
      : q;
  return { ...d, topology: { ...d.topology, queues: d.topology.queues.map(withStrategy) } };
}

describe('dead letters dropped by an at-most-once quorum queue', () => {
  it('finds the quorum queues that dead-letter at most once: the default, or at-least-once without reject-publish', () => {
    const d = quorumRetry();
    const work = d.consumers[0]!.queue;
    expect(atMostOnceDeadLetterSources(d)).toEqual([work]);
    expect(atMostOnceDeadLetterSources(quorumRetry({ atLeastOnce: true }))).toEqual([work]);
    expect(atMostOnceDeadLetterSources(quorumRetry({ atLeastOnce: true, overflow: 'reject-publish' }))).toEqual([]);
  });

  it('a parking queue holding fewer than the trace parked there: the difference; equal, more or explained otherwise: nothing', () => {
    const parked = new Map([
      ['dead', 50],
      ['park', 10],
      ['down', 7],
    ]);
    const held = { dead: { ready: 48, unacked: 1 }, park: { ready: 12, unacked: 0 }, down: { ready: 2, unacked: 0 } };
    expect(deadLetterShortfall(parked, held, new Set(['down']))).toEqual({ dead: 1 });
    expect(deadLetterShortfall(new Map([['dead', 49]]), held, new Set())).toEqual({});
  });
});
