/**
 * amqplib-decoded headers -> JSON the browser can show (reliability-security.md case 20):
 * timestamps `{'!':'timestamp', value}` become numbers (seconds, as the broker writes x-death
 * time), typed values unwrap, Buffers become a base64 preview, long strings are truncated.
 */
import type { AmqpTable, AmqpValue, XDeathEntry, DeathReason } from '@retry-studio/topology-core';

const MAX_STRING = 4096;
const MAX_DEPTH = 16;

export function normalizeValue(v: unknown, depth = 0): AmqpValue {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}… (${v.length} chars)` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (Buffer.isBuffer(v)) {
    const b64 = v.subarray(0, 3072).toString('base64');
    return v.length > 3072 ? `base64:${b64}… (${v.length} bytes)` : `base64:${b64}`;
  }
  if (Array.isArray(v)) return v.slice(0, 1000).map((x) => normalizeValue(x, depth + 1));
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('!' in o && 'value' in o && Object.keys(o).length === 2) return normalizeValue(o.value, depth + 1);
    const out: Record<string, AmqpValue> = {};
    for (const k of Object.keys(o)) {
      if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
      out[k] = normalizeValue(o[k], depth + 1);
    }
    return out;
  }
  return String(v);
}

export function normalizeHeaders(h: unknown): AmqpTable {
  if (!h || typeof h !== 'object') return {};
  return normalizeValue(h) as AmqpTable;
}

const REASONS = new Set(['rejected', 'expired', 'maxlen', 'delivery_limit']);

/** x-death as SimEvent entries, names mapped with `name` (e.g. strip the deploy prefix). */
export function xDeathOf(headers: AmqpTable, name: (n: string) => string = (n) => n): XDeathEntry[] | undefined {
  const raw = headers['x-death'];
  if (!Array.isArray(raw)) return undefined;
  const out: XDeathEntry[] = [];
  for (const e of raw) {
    if (!e || typeof e !== 'object' || Array.isArray(e)) continue;
    const t = e as Record<string, AmqpValue>;
    const reason = String(t.reason ?? '');
    out.push({
      queue: name(String(t.queue ?? '')),
      reason: (REASONS.has(reason) ? reason : 'rejected') as DeathReason,
      count: Number(t.count ?? 0),
      exchange: name(String(t.exchange ?? '')),
      'routing-keys': Array.isArray(t['routing-keys']) ? (t['routing-keys'] as AmqpValue[]).map(String) : [],
      ...(typeof t.time === 'number' ? { time: t.time } : {}),
      ...(t['original-expiration'] !== undefined ? { 'original-expiration': String(t['original-expiration']) } : {}),
    });
  }
  return out;
}
