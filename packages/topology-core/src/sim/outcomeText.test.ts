import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';
import { describeOutcome } from './outcomeText.js';

/** `events` (fanout) -> billing (its consumer: `billing`) and audit (3 d TTL, nobody reads it); billing dead-letters to billing.dlq (7 d by policy). */
function fanout(billing: ConsumerSpec['behaviour']): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 'fanout',
    topology: {
      exchanges: [
        { name: 'events', type: 'fanout' },
        { name: 'dead', type: 'direct' },
      ],
      queues: [
        { name: 'billing', arguments: { 'x-dead-letter-exchange': 'dead', 'x-dead-letter-routing-key': 'billing' } },
        { name: 'audit', arguments: { 'x-message-ttl': 3 * 86_400_000 } },
        { name: 'billing.dlq' },
      ],
      bindings: [
        { source: 'events', destination: 'billing', destination_type: 'queue', routing_key: '' },
        { source: 'events', destination: 'audit', destination_type: 'queue', routing_key: '' },
        { source: 'dead', destination: 'billing.dlq', destination_type: 'queue', routing_key: 'billing' },
      ],
      policies: [
        {
          name: 'dlq-ttl',
          pattern: '\\.dlq$',
          'apply-to': 'queues',
          priority: 0,
          definition: { 'message-ttl': 7 * 86_400_000 },
        },
      ],
    },
    consumers: [{ id: 'b', queue: 'billing', behaviour: billing }],
    publishers: [{ id: 'p', exchange: 'events', routingKey: 'x' }],
  };
}

function ending(d: Design): string {
  const r = simulate({
    ...designToSimulation(d, { messages: 1, failure: { kind: 'always' } }),
    maxTimeMs: 24 * 3600 * 1000,
  });
  const t = traceMessages(r, { activeQueues: activeQueuesOf(d) })[0]!;
  return describeOutcome(t.outcome, { topology: d.topology, horizonMs: 24 * 3600 * 1000 });
}

describe('describeOutcome', () => {
  it('fan-out copies each with their fate: one parked until its TTL drops it, one dead-lettered into a DLQ whose policy expires it', () =>
    expect(ending(fanout({ kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] }))).toBe(
      'copies, each with its own fate: parked in audit; expires after 3 d and is dropped | parked in billing.dlq; expires after 7 d (policy dlq-ttl) and is dropped',
    ));
  it('a copy its consumer processed is one of the fates', () =>
    expect(ending(fanout({ kind: 'script', actions: [{ kind: 'ack' }] }))).toBe(
      'copies, each with its own fate: parked in audit; expires after 3 d and is dropped | processed (acked)',
    ));
  it('a loop cut by the horizon says it is moving, with its attempt and cycle', () =>
    expect(
      describeOutcome(
        { kind: 'moving', attempts: 1333, cycle: ['work.wait', 'work'], atMs: 86_400_000 },
        { topology: fanout({ kind: 'script', actions: [] }).topology, horizonMs: 86_400_000 },
      ),
    ).toBe(
      'still moving when the 24 h horizon ended: attempt 1,333, cycling through work → work.wait → work; it never ends',
    ));
});
