import { describe, expect, it } from 'vitest';
import { consumerNodeId, designNodeIds, exchangeNodeId, isQueueNodeId, nodeName, parseNodeId, queueNodeId } from './nodeIds.js';

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
