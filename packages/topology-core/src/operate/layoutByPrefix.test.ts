import { describe, expect, it } from 'vitest';
import { designFromBroker } from './scaffoldImport.js';
import { ordersSnapshot } from '../../testing/operateFixtures.js';
import { designGroup, groupNodesByPrefix, layoutByPrefix } from './layoutByPrefix.js';

describe('designGroup', () => {
  it('cuts an imported design to one prefix group with both ends of every edge', () => {
    const snap = ordersSnapshot();
    const r = designFromBroker({
      ...snap,
      exchanges: [...snap.exchanges, { name: 'billing', type: 'direct' }],
      queues: [...snap.queues, { name: 'billing.work', arguments: { 'x-dead-letter-exchange': 'orders.dlx' } }],
      bindings: [
        ...snap.bindings,
        { source: 'billing', destination: 'billing.work', destination_type: 'queue', routing_key: 'b' },
      ],
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

describe('layoutByPrefix fills the shape it aims at', () => {
  const bounds = (positions: Record<string, { x: number; y: number }>) => {
    const xs = Object.values(positions).map((p) => p.x);
    const ys = Object.values(positions).map((p) => p.y);
    return { w: Math.max(...xs) - Math.min(...xs) + 240, h: Math.max(...ys) - Math.min(...ys) + 100 };
  };
  const teams = (queues: number) => {
    const names = ['billing', 'shipping', 'catalogue', 'accounting'];
    return {
      topology: {
        exchanges: names.map((t) => ({
          name: `${t}.events`,
          type: 'topic' as const,
          durable: true,
          auto_delete: false,
          internal: false,
          arguments: {},
        })),
        queues: Array.from({ length: queues }, (_, i) => ({
          name: `${names[i % 4]}.service-${i}`,
          durable: true,
          auto_delete: false,
          arguments: {},
        })),
        bindings: [],
      },
      consumers: [],
      publishers: [],
    };
  };
  for (const [queues, aspect] of [
    [1000, 2],
    [1000, 1],
    [10_000, 2],
  ] as const)
    it(`${queues} queues in 4 prefix groups, aimed at ${aspect}: no strip`, () => {
      const { positions } = layoutByPrefix(teams(queues), { aspect });
      expect(Object.keys(positions)).toHaveLength(queues + 4);
      const b = bounds(positions);
      expect(b.w / b.h).toBeGreaterThan(aspect / 2);
      expect(b.w / b.h).toBeLessThan(aspect * 2);
      // no two nodes on one spot
      expect(new Set(Object.values(positions).map((p) => `${p.x},${p.y}`)).size).toBe(queues + 4);
    });
});
