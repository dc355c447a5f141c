import type { ConsumeMessage } from 'amqplib';
import { describe, expect, it } from 'vitest';
import type { BrokerTopology } from './brokerTopology.js';
import { HopReporter, type HopSink } from './hopReporter.js';
import { MSG_HEADER } from './observer.js';
import { atLeastOnceQuorumQueue } from '../testing/queueFixtures.js';
import type { EventInput } from './traceContext.js';

/** work dead-letters to dlx, which routes key 'work' to the parking queue dead */
const topology: BrokerTopology = {
  exchanges: [{ name: 'dlx', type: 'direct', durable: true }],
  queues: [
    atLeastOnceQuorumQueue('work', 'dlx'),
    { name: 'dead', durable: true, arguments: { 'x-queue-type': 'quorum' } },
  ],
  bindings: [{ source: 'dlx', destination: 'dead', destination_type: 'queue', routing_key: 'work' }],
  policies: [],
  operatorPolicies: [],
};

function reporter(): { hops: HopReporter; events: EventInput[] } {
  const events: EventInput[] = [];
  const sink: HopSink = { traceId: 't', back: (n) => n, now: () => 0, emit: (_lane, e) => events.push(e) };
  return { hops: new HopReporter(topology, '4.3', new Set(['dlx']), new Set(['work']), sink), events };
}

/** a dead letter of m1 out of work, as the mirror of dlx receives it (`count`: its death count) */
function deadLetterCopy(count: number, redelivered = false): ConsumeMessage {
  const xDeath = [
    {
      queue: 'work',
      reason: 'rejected',
      count,
      exchange: '',
      'routing-keys': ['work'],
      time: { '!': 'timestamp', value: 1 },
    },
  ];
  return {
    fields: { deliveryTag: 1, redelivered, exchange: 'dlx', routingKey: 'work', consumerTag: 'c' },
    properties: { headers: { [MSG_HEADER]: 'm1', 'x-death': xDeath } },
    content: Buffer.from('body'),
  } as unknown as ConsumeMessage;
}

const copy = (msg: ConsumeMessage) => ({ exchange: 'dlx', msg, mirror: 'obs', rxAt: 0 });

describe('HopReporter: copies seen at a mirror', () => {
  it('a dead letter sent twice (the same deaths, not redelivered: at-least-once dead-lettering after a lost confirm) is one pass', () => {
    const { hops, events } = reporter();
    hops.onCopy(copy(deadLetterCopy(1)));
    const once = events.map((e) => e.kind);
    expect(once).toEqual(['dead-lettered', 'routed', 'enqueued']);
    hops.onCopy(copy(deadLetterCopy(1)));
    expect(events.map((e) => e.kind)).toEqual(once);
  });

  it('the same message dead-lettered again (one more death) is a new pass, as is a redelivered copy not seen before', () => {
    const { hops, events } = reporter();
    hops.onCopy(copy(deadLetterCopy(1)));
    hops.onCopy(copy(deadLetterCopy(2)));
    hops.onCopy(copy(deadLetterCopy(3, true)));
    expect(events.filter((e) => e.kind === 'dead-lettered')).toHaveLength(3);
    hops.onCopy(copy(deadLetterCopy(3, true)));
    expect(events.filter((e) => e.kind === 'dead-lettered')).toHaveLength(3);
  });
});

describe('HopReporter: a pass shown by a delivery before its copy', () => {
  it('is reported once: its copy, when it comes, is that pass; the next pass is new', () => {
    const { hops, events } = reporter();
    // the worker of 'dead' got the dead letter before the mirror of dlx did
    expect(hops.passBeforeCopy(copy(deadLetterCopy(1)), 'dead')).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['dead-lettered', 'routed', 'enqueued']);
    hops.onCopy(copy(deadLetterCopy(1)));
    expect(events).toHaveLength(3);
    hops.onCopy(copy(deadLetterCopy(2)));
    expect(events.filter((e) => e.kind === 'dead-lettered')).toHaveLength(2);
  });

  it('reports nothing when the exchange did not route it straight to that queue (the copy is then read as always)', () => {
    const { hops, events } = reporter();
    expect(hops.passBeforeCopy(copy(deadLetterCopy(1)), 'work')).toBe(false);
    expect(events).toHaveLength(0);
    hops.onCopy(copy(deadLetterCopy(1)));
    expect(events.map((e) => e.kind)).toEqual(['dead-lettered', 'routed', 'enqueued']);
  });
});
