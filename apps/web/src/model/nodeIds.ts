/**
 * Canvas node ids: the same scheme as the core's nodeIds (`exchange:orders`, `queue:orders.q`,
 * `consumer:ID`, `publisher:ID`), so a design's `layout` means the same thing everywhere.
 */
export type NodeKind = 'exchange' | 'queue' | 'consumer' | 'publisher';
const KINDS: readonly NodeKind[] = ['exchange', 'queue', 'consumer', 'publisher'];

export const exchangeNodeId = (name: string) => `exchange:${name}`;
export const queueNodeId = (name: string) => `queue:${name}`;
export const consumerNodeId = (id: string) => `consumer:${id}`;
export const publisherNodeId = (id: string) => `publisher:${id}`;

export function nodeIdOf(kind: NodeKind, key: string): string {
  return `${kind}:${key}`;
}

/** Splits at the first colon (names may contain colons); undefined for foreign ids. */
export function parseNodeId(id: string): { kind: NodeKind; key: string } | undefined {
  const i = id.indexOf(':');
  if (i < 0) return undefined;
  const kind = id.slice(0, i) as NodeKind;
  if (!KINDS.includes(kind)) return undefined;
  return { kind, key: id.slice(i + 1) };
}
