/**
 * Canvas node ids. Names are identities in RabbitMQ, so a node id is its kind plus its name
 * (`exchange:orders`, `queue:orders.q`), and consumers/publishers use their design id.
 * The default exchange is `exchange:` (empty name).
 */
import type { Design } from './design.js';

export type NodeKind = 'exchange' | 'queue' | 'consumer' | 'publisher';
export const NODE_KINDS: readonly NodeKind[] = ['exchange', 'queue', 'consumer', 'publisher'];

export type ExchangeNodeId = `exchange:${string}`;
export type QueueNodeId = `queue:${string}`;
export type ConsumerNodeId = `consumer:${string}`;
export type PublisherNodeId = `publisher:${string}`;
export type NodeId = ExchangeNodeId | QueueNodeId | ConsumerNodeId | PublisherNodeId;

export const exchangeNodeId = (name: string): ExchangeNodeId => `exchange:${name}`;
export const queueNodeId = (name: string): QueueNodeId => `queue:${name}`;
export const consumerNodeId = (id: string): ConsumerNodeId => `consumer:${id}`;
export const publisherNodeId = (id: string): PublisherNodeId => `publisher:${id}`;

export function nodeId(kind: NodeKind, name: string): NodeId {
  return `${kind}:${name}` as NodeId;
}

/** Splits at the first colon (names may contain colons). */
export function parseNodeId(id: string): { readonly kind: NodeKind; readonly name: string } | undefined {
  const i = id.indexOf(':');
  if (i < 0) return undefined;
  const kind = id.slice(0, i);
  if (!(NODE_KINDS as readonly string[]).includes(kind)) return undefined;
  return { kind: kind as NodeKind, name: id.slice(i + 1) };
}

export const isNodeId = (id: unknown): id is NodeId => typeof id === 'string' && parseNodeId(id) !== undefined;
export const isExchangeNodeId = (id: string): id is ExchangeNodeId => id.startsWith('exchange:');
export const isQueueNodeId = (id: string): id is QueueNodeId => id.startsWith('queue:');
export const isConsumerNodeId = (id: string): id is ConsumerNodeId => id.startsWith('consumer:');
export const isPublisherNodeId = (id: string): id is PublisherNodeId => id.startsWith('publisher:');

/** The name (or design id) inside a node id. */
export function nodeName(id: NodeId): string {
  return id.slice(id.indexOf(':') + 1);
}

/** Every node id a design draws (the default exchange only when something publishes to it). */
export function designNodeIds(d: Pick<Design, 'topology' | 'consumers' | 'publishers'>): NodeId[] {
  const ids: NodeId[] = [];
  for (const x of d.topology.exchanges) ids.push(exchangeNodeId(x.name));
  for (const q of d.topology.queues) ids.push(queueNodeId(q.name));
  for (const c of d.consumers) ids.push(consumerNodeId(c.id));
  for (const p of d.publishers) ids.push(publisherNodeId(p.id));
  return ids;
}

/**
 * The canvas node a validation path points into (`topology.queues[2].arguments.x` ->
 * `queue:NAME`, `consumers[0].prefetch` -> `consumer:ID`), so the canvas can mark it.
 */
export function nodeIdForPath(
  d: Pick<Design, 'topology' | 'consumers' | 'publishers'>,
  path: string,
): NodeId | undefined {
  const m =
    /^(?:topology\.)?(exchanges|queues|bindings)\[(\d+)\]/.exec(path) ?? /^(consumers|publishers)\[(\d+)\]/.exec(path);
  if (!m) {
    const l = /^layout\["?([^"\]]+)"?\]|^layout\.(.+)$/.exec(path);
    const id = l ? (l[1] ?? l[2]) : undefined;
    return id !== undefined && parseNodeId(id) ? (id as NodeId) : undefined;
  }
  const i = Number(m[2]);
  switch (m[1]) {
    case 'exchanges': {
      const x = d.topology.exchanges[i];
      return x && typeof x.name === 'string' ? exchangeNodeId(x.name) : undefined;
    }
    case 'queues': {
      const q = d.topology.queues[i];
      return q && typeof q.name === 'string' ? queueNodeId(q.name) : undefined;
    }
    case 'bindings': {
      // a binding is an edge: point at its destination when the path names it, else its source
      const b = d.topology.bindings[i];
      if (!b) return undefined;
      if (path.includes('.destination'))
        return b.destination_type === 'queue' ? queueNodeId(b.destination) : exchangeNodeId(b.destination);
      return exchangeNodeId(b.source);
    }
    case 'consumers': {
      const c = d.consumers[i];
      return c && typeof c.id === 'string' ? consumerNodeId(c.id) : undefined;
    }
    case 'publishers': {
      const p = d.publishers[i];
      return p && typeof p.id === 'string' ? publisherNodeId(p.id) : undefined;
    }
  }
  return undefined;
}
