import { describe, expect, it } from 'vitest';
import type { Topology } from '../../model/definitions.js';
import { lintTopology } from '../lintDesign.js';

/**
 * Issue 21.4: a policy sends six queues' dead letters to `dead` (topic); three queues are bound
 * with plain keys, three with wildcards. Built from the shape of a real export.
 */
function sixQueues(deadBindings: Topology['bindings'] = [], ae?: string): Topology {
  const plain = ['orders', 'payments', 'emails'];
  const wild = ['audit', 'metrics', 'search'];
  return {
    exchanges: [
      { name: 'app', type: 'topic' },
      { name: 'dead', type: 'topic', ...(ae ? { arguments: { 'alternate-exchange': ae } } : {}) },
      ...(ae ? [{ name: ae, type: 'fanout' as const }] : []),
    ],
    queues: [...plain, ...wild].map((name) => ({ name })).concat([{ name: 'dead-letters' }]),
    bindings: [
      ...plain.map((q) => ({
        source: 'app',
        destination: q,
        destination_type: 'queue' as const,
        routing_key: `${q}.created`,
      })),
      ...wild.map((q) => ({
        source: 'app',
        destination: q,
        destination_type: 'queue' as const,
        routing_key: `${q}.#`,
      })),
      ...(ae ? [{ source: ae, destination: 'dead-letters', destination_type: 'queue' as const, routing_key: '' }] : []),
      ...deadBindings,
    ],
    policies: [
      {
        name: 'dlx',
        pattern: '^(orders|payments|emails|audit|metrics|search)$',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'dead-letter-exchange': 'dead' },
      },
    ],
  };
}
const unroutable = (t: Topology) => lintTopology(t).filter((f) => f.id === 'dead-letter-unroutable');

describe('dead-letter-unroutable', () => {
  it('names all six queues, wildcard-bound ones included, in one finding for the exchange', () => {
    const f = unroutable(sixQueues());
    expect(f).toHaveLength(1);
    expect(f[0]!.objects).toEqual([
      'exchange:dead',
      ...['orders', 'payments', 'emails', 'audit', 'metrics', 'search'].map((q) => `queue:${q}`),
    ]);
    expect(f[0]!.message).toContain('6 queues go to dead, and dead has no binding and no alternate exchange');
    expect(f[0]!.message).toContain('audit (keys matching "audit.#")');
    expect(f[0]!.message).toContain('orders ("orders.created")');
  });

  it('a binding for some keys: only the queues whose keys it misses; a wildcard-bound queue keeps its keys, not "any key"', () => {
    // the broker keeps a dead letter's original key (no dead-letter routing key): audit.created finds no "orders.*" binding
    const f = unroutable(
      sixQueues([{ source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: 'orders.*' }]),
    );
    expect(f[0]!.objects).toEqual([
      'exchange:dead',
      'queue:payments',
      'queue:emails',
      'queue:audit',
      'queue:metrics',
      'queue:search',
    ]);
    // a binding for the wildcard queues' keys takes them
    const g = unroutable(
      sixQueues([{ source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: '*.#' }]),
    );
    expect(g).toEqual([]);
  });

  it("a direct DLX: a wildcard-bound queue's family is named when no bound key is of it, not when one is (issue 38)", () => {
    const t = sixQueues();
    const direct = (key: string): Topology => ({
      ...t,
      exchanges: t.exchanges.map((x) => (x.name === 'dead' ? { ...x, type: 'direct' as const } : x)),
      bindings: [
        ...t.bindings,
        { source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: key },
      ],
    });
    expect(unroutable(direct('orders.failed'))[0]!.objects).toContain('queue:audit');
    // audit.failed is a key of audit.# (topicOverlap decides): the keys that arrive may be just those
    expect(unroutable(direct('audit.failed'))[0]!.objects).not.toContain('queue:audit');
  });

  it('a # catch-all whose dead letters some binding takes is not named; each family no binding takes is (issue 38)', () => {
    // audit takes every key (#); its DLX binds order.* only: some of its keys route
    const t: Topology = {
      exchanges: [
        { name: 'app', type: 'topic' },
        { name: 'dead', type: 'topic' },
      ],
      queues: [
        { name: 'audit', arguments: { 'x-dead-letter-exchange': 'dead' } },
        { name: 'payments', arguments: { 'x-dead-letter-exchange': 'dead' } },
        { name: 'dead-letters' },
      ],
      bindings: [
        { source: 'app', destination: 'audit', destination_type: 'queue', routing_key: '#' },
        { source: 'app', destination: 'payments', destination_type: 'queue', routing_key: 'payment.*' },
        { source: 'app', destination: 'payments', destination_type: 'queue', routing_key: 'order.*' },
        { source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: 'order.#' },
      ],
    };
    const [f] = unroutable(t);
    expect(f!.objects).toEqual(['exchange:dead', 'queue:payments']);
    // the family dropped is named, the one that routes is not
    expect(f!.message).toContain('Routing key: keys matching "payment.*".');
  });

  it("a binding for the queue's name does not take what its bindings bring (orders.created)", () => {
    const f = unroutable(
      sixQueues([{ source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: 'orders' }]),
    );
    expect(f[0]!.objects).toContain('queue:orders');
  });

  it('a catch-all binding or an alternate exchange takes them all', () => {
    expect(
      unroutable(
        sixQueues([{ source: 'dead', destination: 'dead-letters', destination_type: 'queue', routing_key: '#' }]),
      ),
    ).toEqual([]);
    expect(unroutable(sixQueues([], 'dead-ae'))).toEqual([]);
  });
});

describe('dlx-fanout-redelivers-to-all through a shared topic or direct exchange', () => {
  // orders.created goes to billing and shipping; billing's retry wait queue dead-letters back into `app` with the original key
  const shared = (dlrk?: string): Topology => ({
    exchanges: [
      { name: 'app', type: 'topic' },
      { name: 'retry', type: 'topic' },
    ],
    queues: [
      // no dead-letter routing key: the dead letter keeps orders.created
      { name: 'billing', arguments: { 'x-dead-letter-exchange': 'retry' } },
      { name: 'shipping' },
      {
        name: 'billing.wait',
        arguments: {
          'x-message-ttl': 5000,
          'x-dead-letter-exchange': 'app',
          ...(dlrk ? { 'x-dead-letter-routing-key': dlrk } : {}),
        },
      },
    ],
    bindings: [
      { source: 'app', destination: 'billing', destination_type: 'queue', routing_key: 'orders.*' },
      { source: 'app', destination: 'shipping', destination_type: 'queue', routing_key: 'orders.created' },
      { source: 'app', destination: 'billing.only', destination_type: 'queue', routing_key: 'billing.retry' },
      { source: 'retry', destination: 'billing.wait', destination_type: 'queue', routing_key: '#' },
    ],
  });
  const copies = (t: Topology) =>
    lintTopology({ ...t, queues: [...t.queues, { name: 'billing.only' }] }).filter(
      (f) => f.id === 'dlx-fanout-redelivers-to-all',
    );

  it('the wait queue sends every retry to shipping as well as billing', () => {
    const [f] = copies(shared());
    expect(f?.objects).toEqual(['queue:billing.wait', 'exchange:app', 'queue:billing', 'queue:shipping']);
    expect(f?.message).toContain('every retry is delivered again to all of them');
  });

  it('a dead-letter routing key only the failing queue is bound for: no copies', () => {
    expect(copies(shared('billing.retry'))).toEqual([]);
  });
});
