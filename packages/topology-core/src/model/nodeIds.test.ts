import { describe, expect, it } from 'vitest';
import {
  consumerNodeId,
  designNodeIds,
  nodeIdForPath,
  exchangeNodeId,
  isQueueNodeId,
  nodeName,
  parseNodeId,
  queueNodeId,
} from './nodeIds.js';

describe('nodeIds', () => {
  it('round-trips names with colons and the default exchange', () => {
    expect(parseNodeId(queueNodeId('a:b'))).toEqual({ kind: 'queue', name: 'a:b' });
    expect(parseNodeId(exchangeNodeId(''))).toEqual({ kind: 'exchange', name: '' });
    expect(nodeName(consumerNodeId('c1'))).toBe('c1');
    expect(parseNodeId('thing:x')).toBeUndefined();
    expect(parseNodeId('nocolon')).toBeUndefined();
    expect(isQueueNodeId('queue:q')).toBe(true);
    expect(isQueueNodeId('exchange:q')).toBe(false);
  });
  it('lists the nodes of a design', () => {
    expect(
      designNodeIds({
        topology: { exchanges: [{ name: 'x', type: 'direct' }], queues: [{ name: 'q' }], bindings: [] },
        consumers: [{ id: 'c', queue: 'q', behaviour: { kind: 'script', actions: [{ kind: 'ack' }] } }],
        publishers: [{ id: 'p', exchange: 'x', routingKey: '' }],
      }),
    ).toEqual(['exchange:x', 'queue:q', 'consumer:c', 'publisher:p']);
  });
});

describe('nodeIdForPath', () => {
  const d = {
    topology: {
      exchanges: [{ name: 'x', type: 'direct' as const }],
      queues: [{ name: 'a' }, { name: 'b' }],
      bindings: [{ source: 'x', destination: 'b', destination_type: 'queue' as const, routing_key: '' }],
    },
    consumers: [{ id: 'c', queue: 'a', behaviour: { kind: 'script' as const, actions: [{ kind: 'ack' as const }] } }],
    publishers: [{ id: 'p', exchange: 'x', routingKey: '' }],
  };
  it('maps validation paths to canvas nodes', () => {
    expect(nodeIdForPath(d, 'topology.queues[1].arguments.x-message-ttl')).toBe('queue:b');
    expect(nodeIdForPath(d, 'queues[0].name')).toBe('queue:a');
    expect(nodeIdForPath(d, 'topology.exchanges[0].type')).toBe('exchange:x');
    expect(nodeIdForPath(d, 'topology.bindings[0].destination')).toBe('queue:b');
    expect(nodeIdForPath(d, 'topology.bindings[0].source')).toBe('exchange:x');
    expect(nodeIdForPath(d, 'consumers[0].prefetch')).toBe('consumer:c');
    expect(nodeIdForPath(d, 'publishers[0].exchange')).toBe('publisher:p');
    expect(nodeIdForPath(d, 'layout["queue:a"]')).toBe('queue:a');
    expect(nodeIdForPath(d, 'name')).toBeUndefined();
    expect(nodeIdForPath(d, 'queues[9].name')).toBeUndefined();
  });
});
