import { describe, expect, it } from 'vitest';
import { designFromBroker } from './scaffoldImport.js';
import { ordersSnapshot } from '../../testing/operateFixtures.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import { layoutByPrefix } from './layoutByPrefix.js';

describe('designFromBroker', () => {
  it('imports the topology without built-in objects, with roles, consumers and publishers', () => {
    const r = designFromBroker(ordersSnapshot());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.design.topology;
    expect(t.exchanges.map((x) => x.name).sort()).toEqual(['orders', 'orders.dlx', 'orders.retry']);
    expect(t.bindings.some((b) => b.source === '')).toBe(false);
    expect(r.roles).toEqual({ 'orders.work': 'work', 'orders.dlq': 'parking', 'orders.wait': 'wait' });
    expect(r.design.consumers.map((c) => c.queue)).toEqual(['orders.work']);
    expect(r.design.consumers[0]?.behaviour).toEqual({ kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] });
    // the DLX gets no publisher; the topic exchange gets one with a key its binding matches
    expect(r.design.publishers.map((p) => [p.exchange, p.routingKey])).toEqual([
      ['orders', 'order.x'],
      ['orders.retry', 'wait'],
    ]);
    expect(r.design.profile).toBe('3.10');
    expect(Object.keys(r.design.layout ?? {})).toHaveLength(3 + 3 + 1 + 2);
    expect(Array.isArray(r.lint)).toBe(true);
  });

  it('scaffolds a publisher for every way into an entry exchange, so lint finds no binding that never matches', () => {
    const base = ordersSnapshot();
    const r = designFromBroker(
      ordersSnapshot('3.10.8', {
        queues: [
          ...base.queues,
          { name: 'invoices.work', type: 'classic', consumers: 1, arguments: {} },
          { name: 'audit', type: 'classic', consumers: 1, arguments: {} },
        ],
        exchanges: [...base.exchanges, { name: 'events', type: 'headers' }],
        bindings: [
          ...base.bindings,
          { source: 'orders', destination: 'invoices.work', destination_type: 'queue', routing_key: 'invoice.#' },
          { source: 'orders', destination: 'orders.work', destination_type: 'queue', routing_key: 'order.*' },
          {
            source: 'events',
            destination: 'audit',
            destination_type: 'queue',
            routing_key: '',
            arguments: { 'x-match': 'all', kind: 'audit' },
          },
        ],
      }),
    );
    if (!r.ok) throw new Error('not ok');
    expect(r.design.vhost).toBe('/');
    expect(r.design.publishers.map((p) => [p.id, p.exchange, p.routingKey, p.properties?.headers ?? null])).toEqual([
      ['publish-orders', 'orders', 'order.x', null],
      ['publish-orders-2', 'orders', 'invoice', null],
      ['publish-orders.retry', 'orders.retry', 'wait', null],
      ['publish-events', 'events', '', { kind: 'audit' }],
    ]);
    expect(r.lint.filter((f) => f.id === 'binding-never-matches')).toEqual([]);
  });

  it('keeps a binding from a built-in exchange (it routes as on the broker) and publishes to it', () => {
    const base = ordersSnapshot();
    const r = designFromBroker(
      ordersSnapshot('3.10.8', {
        queues: [...base.queues, { name: 'audit', type: 'classic', consumers: 1, arguments: {} }],
        exchanges: [...base.exchanges, { name: 'amq.fanout', type: 'fanout' }],
        bindings: [
          ...base.bindings,
          { source: 'amq.fanout', destination: 'audit', destination_type: 'queue', routing_key: '' },
        ],
      }),
    );
    if (!r.ok) throw new Error('not ok');
    expect(r.design.topology.exchanges.map((x) => x.name)).not.toContain('amq.fanout');
    expect(r.design.topology.bindings.find((b) => b.source === 'amq.fanout')?.destination).toBe('audit');
    expect(r.design.publishers.find((p) => p.exchange === 'amq.fanout')).toMatchObject({
      id: 'publish-amq.fanout',
      routingKey: '',
    });
    expect(r.skipped.filter((s) => s.kind === 'binding')).toEqual([]);
  });

  it('takes the profile from the version and skips what the model cannot hold, with the reason', () => {
    const r = designFromBroker(
      ordersSnapshot('4.3.6', {
        queues: [
          ...ordersSnapshot().queues,
          { name: 'audit', type: 'stream', arguments: { 'x-queue-type': 'stream' } },
          { name: 'amq.gen-1', exclusive: true },
        ],
        exchanges: [...ordersSnapshot().exchanges, { name: 'hash', type: 'x-consistent-hash' }],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.design.profile).toBe('4.3');
    expect(r.v43).toBe(true);
    expect(r.skipped.map((s) => `${s.kind} ${s.name}`).sort()).toEqual(['exchange hash', 'queue amq.gen-1']);
    // a stream is imported as a parking place with no worker, even with a live reader
    expect(r.design.topology.queues.find((q) => q.name === 'audit')?.arguments?.['x-queue-type']).toBe('stream');
    expect(r.roles.audit).toBe('parking');
    expect(r.design.consumers.some((c) => c.queue === 'audit')).toBe(false);
  });

  it('a stream read by a live consumer stays a parking place', () => {
    const snap = ordersSnapshot('4.3.6');
    const r = designFromBroker({
      ...snap,
      queues: [
        ...snap.queues,
        { name: 'audit', type: 'stream', consumers: 2, arguments: { 'x-queue-type': 'stream', 'x-max-age': '7D' } },
      ],
    });
    expect(r.ok && r.roles.audit).toBe('parking');
    expect(r.ok && r.design.consumers.map((c) => c.queue)).not.toContain('audit');
  });

  it('reports a bad argument with the path into the vhost listing', () => {
    const snap = ordersSnapshot();
    const r = designFromBroker({ ...snap, queues: [{ name: 'q', arguments: { 'x-message-ttl': -1 } }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]?.path).toBe('queues[0].arguments.x-message-ttl');
  });
});

describe('profileForBrokerVersion', () => {
  it.each([
    ['3.10.8', '3.10', false],
    ['4.2.1', '4.x', false],
    ['4.3.6', '4.3', true],
    ['5.0.0', '4.3', true],
  ] as const)('%s -> %s (v43 %s)', (v, p, v43) => {
    expect(profileForBrokerVersion(v)).toMatchObject({ profile: p, v43 });
  });
});

describe('layoutByPrefix', () => {
  it('groups nodes by name prefix and never stacks two nodes on one spot (5,000 queues)', () => {
    const queues = Array.from({ length: 5000 }, (_, i) => ({ name: `svc${i % 50}.q${i}` }));
    const design = { topology: { exchanges: [], queues, bindings: [] }, consumers: [], publishers: [] };
    const { positions, groups } = layoutByPrefix(design);
    expect(groups).toHaveLength(50);
    expect(groups[0]?.queues).toBe(100);
    const spots = new Set(Object.values(positions).map((p) => `${p.x},${p.y}`));
    expect(spots.size).toBe(5000);
  });
});
