import { describe, expect, it } from 'vitest';
import { type Design, type QueueDef } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { deadLetterDifference, quorumDeadLetterSources } from './deadLetterCounts.js';

function quorumRetry(strategy?: { atLeastOnce: boolean; overflow?: string }): Design {
  const built = buildTemplate('quorum-delayed-retry', { deliveryLimit: 2, minDelayMs: 50, maxDelayMs: 100 });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  const d = built.template.design;
  const withStrategy = (q: QueueDef): QueueDef =>
    strategy && q.arguments?.['x-dead-letter-exchange'] !== undefined
      ? {
          ...q,
          arguments: {
            ...q.arguments,
            'x-dead-letter-strategy': strategy.atLeastOnce ? 'at-least-once' : 'at-most-once',
            ...(strategy.overflow ? { 'x-overflow': strategy.overflow } : {}),
          },
        }
      : q;
  return { ...d, topology: { ...d.topology, queues: d.topology.queues.map(withStrategy) } };
}

describe('a parking queue counted against the dead letters the trace saw', () => {
  it('finds the quorum queues that dead-letter at most once (the default, or at-least-once without reject-publish) and at least once', () => {
    const work = quorumRetry().consumers[0]!.queue;
    expect(quorumDeadLetterSources(quorumRetry())).toEqual({ atMostOnce: [work], atLeastOnce: [] });
    expect(quorumDeadLetterSources(quorumRetry({ atLeastOnce: true }))).toEqual({
      atMostOnce: [work],
      atLeastOnce: [],
    });
    expect(quorumDeadLetterSources(quorumRetry({ atLeastOnce: true, overflow: 'reject-publish' }))).toEqual({
      atMostOnce: [],
      atLeastOnce: [work],
    });
  });

  const parked = new Map([
    ['dead', 50],
    ['park', 10],
    ['down', 7],
  ]);
  const held = { dead: { ready: 48, unacked: 1 }, park: { ready: 12, unacked: 0 }, down: { ready: 2, unacked: 0 } };

  it('a parking queue holding fewer than the trace parked there: short; more: over; equal or explained otherwise: neither', () => {
    expect(deadLetterDifference(parked, held, {}, new Set(['down']))).toEqual({
      short: { dead: 1 },
      over: { park: 2 },
    });
    expect(deadLetterDifference(new Map([['dead', 49]]), held, {}, new Set())).toEqual({ short: {}, over: {} });
  });

  it('what a parking queue held before the trace is not counted: it neither makes a surplus nor hides a shortfall', () => {
    expect(deadLetterDifference(parked, held, { park: 2 }, new Set(['down']))).toEqual({
      short: { dead: 1 },
      over: {},
    });
    expect(deadLetterDifference(parked, held, { dead: 3, park: 2 }, new Set(['down']))).toEqual({
      short: { dead: 4 },
      over: {},
    });
  });
});
