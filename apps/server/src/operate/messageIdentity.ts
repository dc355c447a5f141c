/**
 * What makes two source messages "the same" for the re-drive's crash bookkeeping: a hash of the
 * body, the properties and the headers. Headers the broker rewrites on every delivery
 * (a quorum queue's x-delivery-count, 4.3's x-acquired-count) are left out, so a redelivered
 * original hashes as it did the first time. Identical messages share an identity and are
 * counted, not told apart.
 */
import { createHash } from 'node:crypto';
import type { Message } from 'amqplib';

const PER_DELIVERY_HEADERS = new Set(['x-delivery-count', 'x-acquired-count']);

export function messageIdentity(msg: Pick<Message, 'content' | 'properties'>): string {
  const { headers, ...props } = msg.properties as unknown as Record<string, unknown> & { headers?: Record<string, unknown> };
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (!PER_DELIVERY_HEADERS.has(k)) kept[k] = v;
  const h = createHash('sha1');
  h.update(msg.content);
  h.update('\0');
  h.update(JSON.stringify(props, stableKeys));
  h.update('\0');
  h.update(JSON.stringify(kept, stableKeys));
  return h.digest('base64');
}

/** property order on the wire is fixed, but a replacer with sorted keys makes the hash independent of it */
function stableKeys(_k: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v as { type?: unknown }).type) {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  }
  return v;
}
