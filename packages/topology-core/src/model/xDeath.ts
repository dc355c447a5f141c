/**
 * THE x-death parser: a header value (plain JSON, as the simulator carries it or as the
 * server's amqplib decoder yields it) -> the core's XDeathEntry list, exactly as written:
 * the conformance suite compares it, and a client-forged entry with an odd reason must match
 * no real death, as on the broker (3.10 keeps the header as the history). Entries that are not
 * tables are skipped; missing fields read empty (the broker always writes them all,
 * rabbit_dead_letter.erl L37-69).
 */
import type { AmqpValue } from './definitions.js';
import type { DeathReason } from './consumer.js';

/** One x-death entry, in the shape the broker writes (time in seconds, when known). */
export interface XDeathEntry {
  readonly queue: string;
  readonly reason: DeathReason;
  readonly count: number;
  readonly exchange: string;
  readonly 'routing-keys': readonly string[];
  readonly time?: number;
  readonly 'original-expiration'?: string;
}

/** The reasons RabbitMQ writes (rabbit_dead_letter.erl L19). */
export const DEATH_REASONS: readonly DeathReason[] = ['rejected', 'expired', 'maxlen', 'delivery_limit'];

export function isDeathReason(v: unknown): v is DeathReason {
  return typeof v === 'string' && (DEATH_REASONS as readonly string[]).includes(v);
}

type Table = { readonly [k: string]: AmqpValue };

function isTable(v: AmqpValue | undefined): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One x-death table (anything else: empty fields); the reason as written, checked or not. */
export function parseXDeathEntry(v: AmqpValue | undefined): XDeathEntry {
  const t: Table = isTable(v) ? v : {};
  const rk = t['routing-keys'];
  const oe = t['original-expiration'];
  return {
    queue: String(t['queue'] ?? ''),
    reason: String(t['reason'] ?? '') as DeathReason,
    count: typeof t['count'] === 'number' ? t['count'] : 0,
    exchange: String(t['exchange'] ?? ''),
    'routing-keys': Array.isArray(rk) ? rk.map((k) => String(k)) : [],
    ...(typeof t['time'] === 'number' ? { time: t['time'] } : {}),
    ...(oe !== undefined && oe !== null ? { 'original-expiration': String(oe) } : {}),
  };
}

/** The x-death header's entries, newest first as written; undefined when the header is absent or not an array. */
export function parseXDeath(v: AmqpValue | undefined): XDeathEntry[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isTable).map(parseXDeathEntry);
}
