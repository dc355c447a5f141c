/**
 * Canvas node ids come from the core (`exchange:orders`, `queue:orders.q`, `consumer:ID`,
 * `publisher:ID`), so a design's `layout` and a lint finding's `objects` mean the same here.
 */
import {
  consumerNodeId as coreConsumer,
  exchangeNodeId as coreExchange,
  nodeId,
  parseNodeId as coreParse,
  publisherNodeId as corePublisher,
  queueNodeId as coreQueue,
  type NodeKind,
} from '@retry-studio/topology-core/model';

export type { NodeKind };

export const exchangeNodeId = (name: string): string => coreExchange(name);
export const queueNodeId = (name: string): string => coreQueue(name);
export const consumerNodeId = (id: string): string => coreConsumer(id);
export const publisherNodeId = (id: string): string => corePublisher(id);

export function nodeIdOf(kind: NodeKind, key: string): string {
  return nodeId(kind, key);
}

/** The kind and the name (or design id) inside a node id; undefined for edge ids. */
export function parseNodeId(id: string): { kind: NodeKind; key: string } | undefined {
  const p = coreParse(id);
  return p ? { kind: p.kind, key: p.name } : undefined;
}
