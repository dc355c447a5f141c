/**
 * THE decoder of what amqplib hands us (header tables, x-death entries) into plain JSON.
 * Exact by default (the conformance suite compares what it decodes exactly); the live trace asks
 * for display limits.
 * - typed values `{'!': type, value}` (amqplib's timestamp and decimal) unwrap: timestamps become
 *   their number (seconds, as the broker writes x-death time), decimals digits / 10^places;
 * - bigints become numbers, undefined null; byte arrays utf8 text, or a `base64:` preview;
 * - `__proto__` is always dropped: assigning it to a fresh object would set its prototype
 *   (amqplib's own decoder never yields it as an own key, JSON.parse does).
 */
import {
  FORBIDDEN_KEYS,
  parseXDeathEntry,
  type AmqpTable,
  type AmqpValue,
  type XDeathEntry,
} from '@retry-studio/topology-core/model';

export interface AmqpDecodeOptions {
  /** Display limits: strings past 4096 chars, binaries past 3072 bytes, arrays past 1000 items and nesting past 16 levels are cut. */
  readonly truncate?: boolean;
  /** Byte arrays (AMQP `x`): utf8 text (default) or `base64:...`. */
  readonly binary?: 'utf8' | 'base64';
  /** Also drop `constructor` and `prototype` keys (the core's FORBIDDEN_KEYS): for tables passed on to code that merges them. */
  readonly dropForbiddenKeys?: boolean;
}

const MAX_STRING = 4096;
const MAX_BYTES = 3072;
const MAX_ITEMS = 1000;
const MAX_DEPTH = 16;

/** amqplib's typed-value notation: exactly `{ '!': 'timestamp', value: 1700000000 }`. */
function isTyped(o: object): o is { '!': string; value: unknown } {
  return Object.hasOwn(o, '!') && Object.hasOwn(o, 'value') && Object.keys(o).length === 2;
}

function decodeBytes(b: Buffer, o: AmqpDecodeOptions): string {
  if (o.binary !== 'base64') return b.toString('utf8');
  if (!o.truncate || b.length <= MAX_BYTES) return `base64:${b.toString('base64')}`;
  return `base64:${b.subarray(0, MAX_BYTES).toString('base64')}… (${b.length} bytes)`;
}

// own keys by `for...in` and `hasOwn`, not Object.entries: the live trace decodes every copy's
// headers (x-death's tables included), and a pair array per key was a tenth of a burst's garbage
function decodeEntries(t: object, o: AmqpDecodeOptions, depth: number): Record<string, AmqpValue> {
  const out: Record<string, AmqpValue> = {};
  const table = t as Record<string, unknown>;
  for (const k in table) {
    if (!Object.hasOwn(table, k)) continue;
    if (k === '__proto__' || (o.dropForbiddenKeys === true && FORBIDDEN_KEYS.has(k))) continue;
    out[k] = decode(table[k], o, depth + 1);
  }
  return out;
}

function decodeArray(v: readonly unknown[], o: AmqpDecodeOptions, depth: number): AmqpValue[] {
  const n = o.truncate ? Math.min(v.length, MAX_ITEMS) : v.length;
  const out = new Array<AmqpValue>(n);
  for (let i = 0; i < n; i++) out[i] = decode(v[i], o, depth + 1);
  return out;
}

function decode(v: unknown, o: AmqpDecodeOptions, depth: number): AmqpValue {
  if (o.truncate && depth > MAX_DEPTH) return '[too deep]';
  if (v === null || v === undefined) return null;
  if (typeof v === 'string')
    return o.truncate && v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}… (${v.length} chars)` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (Buffer.isBuffer(v)) return decodeBytes(v, o);
  if (Array.isArray(v)) return decodeArray(v, o, depth);
  if (typeof v === 'object') {
    if (!isTyped(v)) return decodeEntries(v, o, depth);
    if (v['!'] === 'decimal' && typeof v.value === 'object' && v.value !== null) {
      const d = v.value as { places: number; digits: number };
      return d.digits / 10 ** d.places;
    }
    return decode(v.value, o, depth + 1);
  }
  return String(v);
}

/** Plain JSON for one value amqplib decoded. */
export function decodeAmqpValue(v: unknown, opts: AmqpDecodeOptions = {}): AmqpValue {
  return decode(v, opts, 0);
}

/** A header table (`properties.headers`, absent or not a table: `{}`). */
export function decodeAmqpTable(h: unknown, opts: AmqpDecodeOptions = {}): AmqpTable {
  if (!h || typeof h !== 'object' || Array.isArray(h)) return {};
  return decodeEntries(h, opts, 0);
}

/** One x-death table as amqplib decoded it -> the core's XDeathEntry (the core's parser, after our decoding). */
export function decodeXDeath(entry: unknown): XDeathEntry {
  return parseXDeathEntry(decodeAmqpValue(entry));
}
