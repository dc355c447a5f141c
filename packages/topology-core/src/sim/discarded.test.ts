/**
 * `discard`: the application gives up and acks. The broker forgets the message, so its outcome is
 * `discarded` (a loss), never `acked`: users read "acked" as processed.
 */
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import type { ConsumerSpec, FailureModel } from '../model/consumer.js';
import { validateDesign } from '../model/validateDesign.js';
import { simulate } from './simulate.js';
import { designToSimulation } from './designToSimulation.js';
import { activeQueuesOf, traceMessages } from './messageTrace.js';
import { describeOutcome, outcomeTone } from './outcomeText.js';
import { endingOf } from './messageOutcome.js';

function oneQueue(behaviour: ConsumerSpec['behaviour']): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 'discard',
    topology: { exchanges: [], queues: [{ name: 'orders' }], bindings: [] },
    consumers: [{ id: 'worker', queue: 'orders', behaviour }],
    publishers: [{ id: 'p', exchange: '', routingKey: 'orders' }],
  };
}

const giveUpAfter3: ConsumerSpec['behaviour'] = {
  kind: 'worker',
  onFailure: [
    {
      then: {
        kind: 'retryInProcess',
        maxAttempts: 3,
        backoff: { initialMs: 1000, multiplier: 2, maxMs: 10_000 },
        recover: { kind: 'discard' },
      },
    },
  ],
};

function traceOf(d: Design, failure: FailureModel) {
  const r = simulate({ ...designToSimulation(d, { messages: 1, failure }), maxTimeMs: 3_600_000 });
  return { trace: traceMessages(r, { activeQueues: activeQueuesOf(d) })[0]!, events: r.events };
}

describe('the discard action and the discarded outcome', () => {
  it('is a valid action, in a recoverer too', () => {
    expect(validateDesign(oneQueue(giveUpAfter3)).ok).toBe(true);
    expect(validateDesign(oneQueue({ kind: 'script', actions: [{ kind: 'discard' }] })).ok).toBe(true);
  });

  it('a message that always fails is discarded at its last attempt: a loss, said as such', () => {
    const d = oneQueue(giveUpAfter3);
    const { trace, events } = traceOf(d, { kind: 'always' });
    expect(trace.outcome).toEqual({ kind: 'discarded', consumer: 'worker', attempt: 3 });
    expect(trace.delaysMs).toEqual([1000, 2000]);
    expect(endingOf(trace.outcome)).toEqual({ kind: 'discarded', consumer: 'worker' });
    expect(outcomeTone(trace.outcome)).toBe('loss');
    const text = describeOutcome(trace.outcome, { topology: d.topology });
    expect(text).toMatch(/^discarded by worker at attempt 3/);
    expect(text).toContain('the message is gone');
    expect(text).not.toMatch(/^acked/);
    // the broker saw an ack: the event is an ack that says it was a discard
    const acks = events.filter((e) => e.kind === 'acked');
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({ discarded: true, consumer: 'worker' });
  });

  it('a message that succeeds on a retry is acked, not discarded', () => {
    const { trace } = traceOf(oneQueue(giveUpAfter3), { kind: 'failFirst', n: 2 });
    expect(trace.outcome).toMatchObject({ kind: 'acked', consumer: 'worker', attempt: 3 });
  });

  it("a script consumer's discard is discarded too", () => {
    const { trace } = traceOf(oneQueue({ kind: 'script', actions: [{ kind: 'discard' }] }), { kind: 'always' });
    expect(trace.outcome.kind).toBe('discarded');
  });
});
