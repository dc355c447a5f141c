/** `defer`: the application holds the delivery for a while, then acts (Rascal's recovery `defer`). */
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { validateDesign } from '../model/validateDesign.js';
import { simulate } from './simulate.js';
import { designToSimulation } from './designToSimulation.js';
import { activeQueuesOf, traceMessages } from './messageTrace.js';

const design = (behaviour: ConsumerSpec['behaviour']): Design => ({
  format: 'retry-studio/design',
  version: 1,
  name: 'defer',
  topology: { exchanges: [], queues: [{ name: 'jobs' }], bindings: [] },
  consumers: [{ id: 'w', queue: 'jobs', behaviour }],
  publishers: [{ id: 'p', exchange: '', routingKey: 'jobs' }],
});

/** nack with requeue 1 s after each of the first two failures, then reject half a second after the third */
const deferred: ConsumerSpec['behaviour'] = {
  kind: 'worker',
  onFailure: [
    {
      when: { kind: 'lt', counter: { kind: 'attempt' }, value: 3 },
      then: { kind: 'defer', ms: 1000, then: { kind: 'requeue' } },
    },
    { then: { kind: 'defer', ms: 500, then: { kind: 'reject' } } },
  ],
};

describe('the defer action', () => {
  it('is valid with a settling action, and refused around hold', () => {
    expect(validateDesign(design(deferred)).ok).toBe(true);
    const bad = validateDesign(
      design({ kind: 'worker', onFailure: [{ then: { kind: 'defer', ms: -1, then: { kind: 'hold' } } }] }),
    );
    expect(bad.ok).toBe(false);
  });

  it('waits before acting: the attempts come a second apart, the last one ends half a second later', () => {
    const d = design(deferred);
    const r = simulate({ ...designToSimulation(d, { messages: 1, failure: { kind: 'always' } }), maxTimeMs: 60_000 });
    const t = traceMessages(r, { activeQueues: activeQueuesOf(d) })[0]!;
    expect(t.attempts).toBe(3);
    expect(t.delaysMs).toEqual([1000, 1000]);
    expect(t.outcome.kind).toBe('dropped');
    const processed = r.events.filter((e) => e.kind === 'processed').map((e) => e.t);
    const rejected = r.events.find((e) => e.kind === 'rejected')!;
    expect(rejected.t - processed[2]!).toBe(500);
  });
});
