// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withAssumedActors } from '@retry-studio/topology-core/lint';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design, type QueueDef } from '@retry-studio/topology-core/model';
import { assumedActorsOf, drawnNodeId } from './assumedActors';
import { FlowMapper } from '../graph/designToFlow';
import { LAYERED_MAX_NODES } from './designSize';

const queue = (name: string, args: QueueDef['arguments'] = {}): QueueDef => ({ name, durable: true, arguments: args });

/** a definitions file's shape, scaffolded as an import does: a topic exchange with three keys into a work queue that dead-letters to its DLQ */
function imported(keys = ['orders.created', 'orders.paid', 'orders.shipped']): Design {
  const design: Design = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: 'file',
    topology: {
      exchanges: [
        { name: 'orders', type: 'topic', durable: true },
        { name: 'orders.dlx', type: 'fanout', durable: true },
      ],
      queues: [queue('orders.work', { 'x-dead-letter-exchange': 'orders.dlx' }), queue('orders.dlq')],
      bindings: [
        ...keys.map((k) => ({
          source: 'orders',
          destination: 'orders.work',
          destination_type: 'queue' as const,
          routing_key: k,
        })),
        { source: 'orders.dlx', destination: 'orders.dlq', destination_type: 'queue', routing_key: '' },
      ],
    },
    consumers: [],
    publishers: [],
  };
  return withAssumedActors(design).design;
}

describe("the import's stand-in actors", () => {
  it('folds every assumed publisher into the exchange it publishes to, and knows the assumed worker', () => {
    const d = imported();
    expect(d.publishers).toHaveLength(3);
    const a = assumedActorsOf(d);
    expect([...a.foldedInto.values()]).toEqual(['exchange:orders', 'exchange:orders', 'exchange:orders']);
    expect(a.byNode.get('exchange:orders')!.map((p) => p.routingKey)).toEqual([
      'orders.created',
      'orders.paid',
      'orders.shipped',
    ]);
    expect([...a.workers]).toEqual(['worker-orders.work']);
    expect(drawnNodeId(a, `publisher:${d.publishers[1]!.id}`)).toBe('exchange:orders');
    expect(drawnNodeId(a, 'queue:orders.dlq')).toBe('queue:orders.dlq');
  });

  it('an actor the user edited is theirs: drawn as a node again; one read back with its keys reordered is still assumed', () => {
    const d = imported();
    const [first, second, ...rest] = d.publishers;
    const reordered = Object.fromEntries(Object.entries(second!).reverse()) as typeof second;
    const edited: Design = {
      ...d,
      publishers: [{ ...first!, routingKey: 'orders.refunded' }, reordered!, ...rest],
      consumers: d.consumers.map((c) => ({ ...c, prefetch: 5 })),
    };
    const a = assumedActorsOf(edited);
    expect([...a.foldedInto.keys()]).toEqual([second!.id, rest[0]!.id]);
    expect(a.workers.size).toBe(0);
  });

  it('the canvas draws no node or edge for a folded publisher; its exchange carries them; the worker is named assumed', () => {
    const d = imported();
    const m = new FlowMapper();
    const nodes = m.nodesOf(d);
    expect(nodes.filter((n) => n.type === 'publisher')).toHaveLength(0);
    const x = nodes.find((n) => n.id === 'exchange:orders')!;
    expect(x.data.kind === 'exchange' && x.data.assumed?.length).toBe(3);
    const w = nodes.find((n) => n.type === 'consumer')!;
    expect(w.data.kind === 'consumer' && w.data.assumed).toBe(true);
    expect(m.edgesOf(d).filter((e) => e.data?.kind === 'publish')).toHaveLength(0);
    // made theirs: drawn left of the exchange it publishes to (the layout had folded it, so it has no place)
    const layout = { 'exchange:orders': { x: 500, y: 200 } };
    const mine = { ...d, layout, publishers: [{ ...d.publishers[0]!, routingKey: 'orders.refunded' }] };
    const p = m.nodesOf(mine).find((n) => n.type === 'publisher')!;
    expect(p.position.y).toBe(200);
    expect(p.position.x).toBeLessThan(500 - 190);
    expect(m.edgesOf(mine).filter((e) => e.data?.kind === 'publish')).toHaveLength(1);
  });

  it('a design past the layered layout keeps every node in place: nothing folded', () => {
    const keys = Array.from({ length: LAYERED_MAX_NODES }, (_, i) => `k.${i}`);
    const d = imported(keys);
    expect(d.publishers.length).toBeGreaterThan(LAYERED_MAX_NODES - 10);
    expect(assumedActorsOf(d).foldedInto.size).toBe(0);
  });
});
