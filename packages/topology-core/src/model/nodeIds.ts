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
