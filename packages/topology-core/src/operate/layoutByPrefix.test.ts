import { describe, expect, it } from 'vitest';
import { designFromBroker } from './scaffoldImport.js';
import { ordersSnapshot } from '../../testing/operateFixtures.js';
import { designGroup, groupNodesByPrefix } from './layoutByPrefix.js';

describe('designGroup', () => {
  it('cuts an imported design to one prefix group with both ends of every edge', () => {
    const snap = ordersSnapshot();
    const r = designFromBroker({
      ...snap,
      exchanges: [...snap.exchanges, { name: 'billing', type: 'direct' }],
      queues: [...snap.queues, { name: 'billing.work', arguments: { 'x-dead-letter-exchange': 'orders.dlx' } }],
      bindings: [...snap.bindings, { source: 'billing', destination: 'billing.work', destination_type: 'queue', routing_key: 'b' }],
    });
    if (!r.ok) throw new Error('import failed');
    expect(groupNodesByPrefix(r.design).map((g) => [g.key, g.queues])).toEqual([
      ['billing', 1],
      ['orders', 3],
    ]);
    const g = designGroup(r.design, 'billing');
    expect(g.topology.queues.map((q) => q.name)).toEqual(['billing.work']);
    // its dead-letter exchange comes along
    expect(g.topology.exchanges.map((x) => x.name).sort()).toEqual(['billing', 'orders.dlx']);
    expect(g.consumers.map((c) => c.queue)).toEqual(['billing.work']);
    expect(Object.keys(g.layout ?? {}).length).toBe(2 + 1 + 1 + 1);
  });
});
