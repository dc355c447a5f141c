/**
 * Normalisation of a delivered message's headers, exactly as the retry-scenario/1 README says:
 * - x-death keeps queue, reason, count, exchange, routing-keys and (when present)
 *   original-expiration as a string, in the broker's order (newest first); `time` is dropped;
 * - `headers` is every other header, omitted when empty; AMQP timestamps become plain numbers.
 *
 * Which x-death fields are kept is the core's rule (`normaliseDeaths` in scenario/observe.ts);
 * this file only decodes the broker's AMQP table into the core's XDeathEntry. Pure (no Node, no
 * amqplib); the input is amqplib's decoded table with Buffers already made strings.
 */
import { normaliseDeaths, type AmqpTable, type AmqpValue, type DeathReason, type ObservedDeath, type XDeathEntry } from '@retry-studio/topology-core';

/** amqplib's typed-value notation: `{ '!': 'timestamp', value: 1700000000 }`. */
function isTyped(v: unknown): v is { '!': string; value: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, '!');
}

/** Plain JSON for one decoded AMQP value (timestamps and other typed values become their value). */
export function plainAmqpValue(v: unknown): AmqpValue {
  if (isTyped(v)) {
    const inner = v.value;
    if (v['!'] === 'decimal' && typeof inner === 'object' && inner !== null) {
      const d = inner as { places: number; digits: number };
      return d.digits / 10 ** d.places;
    }
    return plainAmqpValue(inner);
  }
  if (Array.isArray(v)) return v.map(plainAmqpValue);
  if (v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, AmqpValue> = {};
    for (const [k, x] of Object.entries(v)) out[k] = plainAmqpValue(x);
    return out;
  }
  return v as AmqpValue;
}

/** One decoded x-death table -> the core's XDeathEntry (the broker's AMQP types made plain). */
export function decodeDeath(entry: unknown): XDeathEntry {
  const e = (plainAmqpValue(entry) ?? {}) as Record<string, AmqpValue>;
  const oe = e['original-expiration'];
  return {
    queue: String(e.queue ?? ''),
    reason: String(e.reason ?? '') as DeathReason,
    count: Number(e.count ?? 0),
    exchange: String(e.exchange ?? ''),
    'routing-keys': Array.isArray(e['routing-keys']) ? e['routing-keys'].map((k) => String(k)) : [],
    ...(typeof e.time === 'number' ? { time: e.time } : {}),
    ...(oe !== undefined && oe !== null ? { 'original-expiration': String(oe) } : {}),
  };
}

export interface NormalisedHeaders {
  readonly 'x-death'?: readonly ObservedDeath[];
  readonly headers?: AmqpTable;
}

export function normaliseHeaders(raw: { readonly [k: string]: unknown } | undefined | null): NormalisedHeaders {
  const out: { 'x-death'?: ObservedDeath[]; headers?: Record<string, AmqpValue> } = {};
  if (!raw) return out;
  const rest: Record<string, AmqpValue> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'x-death' && Array.isArray(v)) {
      out['x-death'] = normaliseDeaths(v.map(decodeDeath));
    } else {
      rest[k] = plainAmqpValue(v);
    }
  }
  if (Object.keys(rest).length > 0) out.headers = rest;
  return out;
}
