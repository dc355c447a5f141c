import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/design.js';
import type { Counter } from '../../model/consumer.js';
import { buildTemplate } from '../../templates/registry.js';
import { renameNode } from '../../model/renameNode.js';
import { mapReferences } from '../../model/references.js';
import { lintDesign } from '../lintDesign.js';
import { computeBudget } from '../../budget/budget.js';

function dlxTtl(): Design {
  const r = buildTemplate('dlx-ttl-wait-queue');
  if (!r.ok) throw new Error('template');
  return r.template.design;
}
/** The worker's limit reads `counter` instead of its x-death count for (orders.q, rejected). */
function withCounter(d: Design, counter: Counter): Design {
  return {
    ...d,
    consumers: d.consumers.map((c) =>
      c.behaviour.kind === 'worker'
        ? {
            ...c,
            behaviour: {
              ...c.behaviour,
              onFailure: c.behaviour.onFailure.map((r, i) =>
                i === 0 && r.when?.kind === 'lt' ? { ...r, when: { ...r.when, counter } } : r,
              ),
            },
          }
        : c,
    ),
  };
}
/** The queue renamed the way a text editor would: everywhere but the counter (the bug of issue 11). */
function renamedButTheCounter(): Design {
  const r = renameNode(dlxTtl(), 'queue', 'orders.q', 'orders.work');
  if (!r.ok) throw new Error(r.error.message);
  return withCounter(r.design, { kind: 'deathCount', queue: 'orders.q', reason: 'rejected' });
}
const neverEnds = (d: Design) => lintDesign(d).filter((f) => f.id === 'retry-never-ends');

describe('retry-never-ends', () => {
  it('passes the template as generated', () => expect(neverEnds(dlxTtl())).toEqual([]));

  it('a counter still naming the old queue: an error naming the queue and the counter', () => {
    const [f, ...more] = neverEnds(renamedButTheCounter());
    expect(more).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', objects: ['queue:orders.work', 'consumer:worker'] });
    expect(f!.message).toContain('orders.work: a message that always fails is never parked, dropped or acked');
    expect(f!.message).toContain('the x-death count for queue orders.q, reason rejected reads 0');
  });

  it('a counter on the wrong death reason (expired instead of rejected)', () => {
    const [f] = neverEnds(withCounter(dlxTtl(), { kind: 'deathCount', queue: 'orders.q', reason: 'expired' }));
    expect(f?.message).toContain('reason expired reads 0');
    expect(f?.objects).toContain('queue:orders.q');
  });

  it('a success path that loops is caught by the fail-first-K run', () => {
    const d = dlxTtl();
    const loops: Design = {
      ...d,
      consumers: d.consumers.map((c) =>
        c.behaviour.kind === 'worker'
          ? {
              ...c,
              behaviour: { ...c.behaviour, onSuccess: { kind: 'republish', exchange: '', routingKey: 'orders.q' } },
            }
          : c,
      ),
    };
    expect(neverEnds(loops).map((f) => f.message)).toEqual([
      expect.stringContaining(
        'orders.q: a message that fails its first 2 attempts is never parked, dropped or acked (',
      ),
    ]);
  });

  it('says nothing about a definitions file (no consumers known)', () => {
    expect(neverEnds({ ...renamedButTheCounter(), consumers: [], publishers: [] })).toEqual([]);
  });
});

describe('attempt cap', () => {
  it('a fail-first-K run whose ack only the cap gave is acked (the events say so) and says it never ends failing always', () => {
    const b = computeBudget(renamedButTheCounter(), { kind: 'failFirst', n: 9 });
    expect(b.attempts).toBe(10);
    expect(b.outcome).toEqual({ kind: 'acked', consumer: 'worker', attempt: 10, neverEndsFailingAlways: true });
    expect(b.outcomeText).toBe(
      'acked by worker at attempt 10 (only because the worker stopped failing: failing every time, it never ends)',
    );
    expect(b.risks.map((r) => r.kind)).toContain('unbounded');
  });
  it('a design whose retry ends keeps its outcomes: parked, or acked after a recovery', () => {
    expect(computeBudget(dlxTtl(), { kind: 'failFirst', n: 9 }).endsIn).toEqual({
      kind: 'queue',
      queue: 'orders.parking',
    });
    expect(computeBudget(dlxTtl(), { kind: 'failFirst', n: 2 }).endsIn).toEqual({ kind: 'acked' });
    // renamed through the walker, the counter follows and the template behaves as before
    const walked = mapReferences(dlxTtl(), (r) =>
      r.target === 'queue' && r.name === 'orders.q' ? 'orders.work' : r.name,
    );
    expect(computeBudget(walked, { kind: 'always' })).toMatchObject({
      attempts: 4,
      endsIn: { kind: 'queue', queue: 'orders.parking' },
    });
  });
});

describe('a parking queue (no consumer, no TTL) is where a message rests, not a loop (issue 29)', () => {
  /** A loop that never ends (the stale counter) beside a publisher straight into the dead-letter exchange: its message rests in the DLQ. */
  function loopBesideParking(): Design {
    const d = renamedButTheCounter();
    const dlx = d.topology.queues.find((q) => q.name === 'orders.parking');
    if (!dlx) throw new Error('parking queue');
    return {
      ...d,
      topology: {
        ...d.topology,
        exchanges: [...d.topology.exchanges, { name: 'audit', type: 'fanout' }],
        bindings: [
          ...d.topology.bindings,
          { source: 'audit', destination: 'orders.parking', destination_type: 'queue', routing_key: '' },
        ],
      },
      publishers: [...d.publishers, { id: 'auditor', exchange: 'audit', routingKey: 'a' }],
    };
  }
  it('the run is cut by the loop, and the message in the parking queue is parked, not "keeps moving between queues"', () => {
    const found = neverEnds(loopBesideParking());
    expect(found.map((f) => f.message)).toEqual([expect.stringMatching(/^orders\.work: a message that always fails/)]);
    expect(found.some((f) => f.message.includes('orders.parking'))).toBe(false);
  });
});
