/**
 * What makes two source messages "the same" for the re-drive's crash bookkeeping: a hash of the
 * body, the properties and the headers. Headers the broker rewrites on every delivery
 * (a quorum queue's x-delivery-count, 4.3's x-acquired-count) are left out, so a redelivered
 * original hashes as it did the first time. Identical messages share an identity and are
 * counted, not told apart.
 */
import { createHash } from 'node:crypto';
import type { Message } from 'amqplib';
import { REDRIVE_MARKER_HEADERS } from '@retry-studio/topology-core/operate';

const PER_DELIVERY_HEADERS = new Set(['x-delivery-count', 'x-acquired-count']);
const COPY_IGNORED_HEADERS = new Set([...PER_DELIVERY_HEADERS, ...REDRIVE_MARKER_HEADERS]);
/** properties a re-driven copy may not carry over (a user-id the connection's user does not match is dropped) */
const COPY_IGNORED_PROPERTIES = new Set(['userId', 'clusterId']);

export function messageIdentity(msg: Pick<Message, 'content' | 'properties'>): string {
  return identity(msg, PER_DELIVERY_HEADERS, undefined);
}

/** What a re-driven copy and its original have in common: the identity without the re-drive's marker and the properties a copy may drop. */
export function copyIdentity(msg: Pick<Message, 'content' | 'properties'>): string {
  return identity(msg, COPY_IGNORED_HEADERS, COPY_IGNORED_PROPERTIES);
}

function identity(
  msg: Pick<Message, 'content' | 'properties'>,
  ignoredHeaders: ReadonlySet<string>,
  ignoredProps: ReadonlySet<string> | undefined,
): string {
  const { headers, ...all } = msg.properties as unknown as Record<string, unknown> & {
    headers?: Record<string, unknown>;
  };
  const props = ignoredProps ? Object.fromEntries(Object.entries(all).filter(([k]) => !ignoredProps.has(k))) : all;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (!ignoredHeaders.has(k)) kept[k] = v;
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
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  }
  return v;
}
