/**
 * One dead letter picked out without a message-id (typical amqplib publishes carry none): by its
 * position in the queue and a digest of its body, headers and x-death. The browser takes both from
 * a browse; the re-drive checks them again on the message it reads at that position, so a queue
 * that changed in between moves nothing rather than the wrong message. Pure (no Node crypto): two
 * FNV-1a 32-bit hashes over the canonical JSON, enough to tell messages apart, not a security hash.
 */
import type { DeadLetterMessage } from './deadLetter.js';

/** JSON with object keys sorted: the same value gives the same text on the server and in the browser */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function fnv1a(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** 16 hex digits over the body preview, its length in bytes, the headers and the x-death table */
export function messageDigest(m: Pick<DeadLetterMessage, 'body' | 'bodyBytes' | 'headers' | 'xDeath'>): string {
  const text = canonical([m.body, m.bodyBytes, m.headers, m.xDeath]);
  return fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x050c5d1f);
}
