// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { runDesignSimulation } from './runSimulation';
import { dlxTtlRetry } from '../fixtures/designs';

/** The worker's limit counts deaths in a queue the message never dies in: it retries forever. */
function staleCounter(): Design {
  const d = dlxTtlRetry({ ttl: 1000, max: 3 });
  return {
    ...d,
    consumers: d.consumers.map((c) =>
      c.behaviour.kind === 'worker'
        ? { ...c, behaviour: { ...c.behaviour, onFailure: c.behaviour.onFailure.map((r) => (r.when?.kind === 'gte' ? { ...r, when: { ...r.when, counter: { kind: 'deathCount' as const, queue: 'gone.q', reason: 'rejected' as const } } } : r)) } }
        : c,
    ),
  };
}

describe('runDesignSimulation and the attempt cap', () => {
  it('names the messages acked only because the fail-first worker stopped failing', () => {
    const r = runDesignSimulation(staleCounter(), { messages: 2, failure: { kind: 'failFirst', n: 6 }, seed: 1 });
    expect('capped' in r && r.capped.length).toBe(2);
  });
  it('a design that parks or recovers by itself has none', () => {
    for (const n of [1, 6]) {
      const r = runDesignSimulation(dlxTtlRetry({ ttl: 1000, max: 3 }), { messages: 2, failure: { kind: 'failFirst', n }, seed: 1 });
      expect('capped' in r && r.capped).toEqual([]);
    }
  });
});
