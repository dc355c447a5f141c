// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { runDesignSimulation } from './runSimulation';
import { dlxTtlRetry } from '../fixtures/designs';
import { storiesOf } from '../panels/messageStory';

/** The worker's limit counts deaths in a queue the message never dies in: it retries forever. */
function staleCounter(): Design {
  const d = dlxTtlRetry({ ttl: 1000, max: 3 });
  return {
    ...d,
    consumers: d.consumers.map((c) =>
      c.behaviour.kind === 'worker'
        ? {
            ...c,
            behaviour: {
              ...c.behaviour,
              onFailure: c.behaviour.onFailure.map((r) =>
                r.when?.kind === 'gte'
                  ? {
                      ...r,
                      when: {
                        ...r.when,
                        counter: { kind: 'deathCount' as const, queue: 'gone.q', reason: 'rejected' as const },
                      },
                    }
                  : r,
              ),
            },
          }
        : c,
    ),
  };
}

describe("runDesignSimulation: each message's outcome from the core", () => {
  it('a message acked only because the fail-first worker stopped failing is acked, and says it never ends failing always', () => {
    const r = runDesignSimulation(staleCounter(), { messages: 2, failure: { kind: 'failFirst', n: 6 }, seed: 1 });
    if ('error' in r) throw new Error(r.error);
    expect(Object.values(r.outcomes).map((o) => o.outcome)).toEqual([
      { kind: 'acked', consumer: 'worker', attempt: 7, neverEndsFailingAlways: true },
      { kind: 'acked', consumer: 'worker', attempt: 7, neverEndsFailingAlways: true },
    ]);
    expect(Object.values(r.outcomes)[0]!.text).toBe(
      'acked by worker at attempt 7 (only because the worker stopped failing: failing every time, it never ends)',
    );
  });
  it('a design that parks or recovers by itself has none', () => {
    for (const n of [1, 6]) {
      const r = runDesignSimulation(dlxTtlRetry({ ttl: 1000, max: 3 }), {
        messages: 2,
        failure: { kind: 'failFirst', n },
        seed: 1,
      });
      if ('error' in r) throw new Error(r.error);
      expect(
        Object.values(r.outcomes).some((o) => o.outcome.kind === 'acked' && o.outcome.neverEndsFailingAlways),
      ).toBe(false);
    }
  });
});

describe('the lane and the detail state the core outcome (issue 29)', () => {
  it('a loop the run cut off is still moving, with its attempt and cycle: not "resting in" its work queue', () => {
    const r = runDesignSimulation(staleCounter(), {
      messages: 1,
      failure: { kind: 'always' },
      seed: 1,
      maxEvents: 3_000,
    });
    if ('error' in r) throw new Error(r.error);
    const [story] = storiesOf(r.events, r.outcomes);
    expect(r.outcomes[story!.msgId]!.outcome).toMatchObject({ kind: 'moving', cycle: ['wait.q', 'work.q'] });
    expect(story!.fate).toMatch(
      /^still moving when the run's event bound stopped it at [0-9.]+ (min|h|s): attempt [0-9,]+, cycling through work\.q → wait\.q → work\.q; it never ends$/,
    );
    expect(story!.tone).toBe('open');
  });
  it('a message dead-lettered into a queue nothing reads: parked, and its x-death is the one it carries there', () => {
    const d = dlxTtlRetry();
    const rejecting: Design = {
      ...d,
      topology: {
        ...d.topology,
        exchanges: [...d.topology.exchanges, { name: 'dead', type: 'fanout', durable: true }],
        queues: d.topology.queues.map((q) =>
          q.name === 'work.q' ? { ...q, arguments: { 'x-dead-letter-exchange': 'dead' } } : q,
        ),
        bindings: [
          ...d.topology.bindings,
          { source: 'dead', destination: 'parking.q', destination_type: 'queue', routing_key: '' },
        ],
      },
      consumers: d.consumers.map((c) =>
        c.behaviour.kind === 'worker'
          ? { ...c, behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] } }
          : c,
      ),
    };
    const r = runDesignSimulation(rejecting, { messages: 1, failure: { kind: 'always' }, seed: 1 });
    if ('error' in r) throw new Error(r.error);
    const [story] = storiesOf(r.events, r.outcomes);
    expect(story!.fate).toBe('parked in parking.q');
    expect(story!.xDeath.map((x) => [x.queue, x.reason, x.count])).toEqual([['work.q', 'rejected', 1]]);
  });
});

describe("the browser's run goes as far as the design's horizon (sim/retryHorizon.ts), as simulate does", () => {
  const DAY = 86_400_000;
  it('retries 3 days apart are followed to the parking queue, not cut off waiting after a day', () => {
    const r = runDesignSimulation(dlxTtlRetry({ ttl: 3 * DAY, max: 3 }), {
      messages: 1,
      failure: { kind: 'always' },
      seed: 1,
    });
    if ('error' in r) throw new Error(r.error);
    const [story] = storiesOf(r.events, r.outcomes);
    expect(r.outcomes[story!.msgId]!.outcome).toMatchObject({ kind: 'parked', queue: 'parking.q' });
    expect(story!.fate).toBe('parked in parking.q');
    // three waits of 3 days: the run followed the message past the fixed day it stopped at before
    expect(r.endTime).toBe(6 * DAY);
  });
});
