/**
 * Headers for the browser (reliability-security.md case 20): the broker layer's decoder with the
 * trace's display limits (long strings, binaries and arrays cut, base64 previews, no
 * `__proto__`/`constructor`/`prototype` keys), and x-death as SimEvent entries.
 */
import type { AmqpTable, XDeathEntry, DeathReason } from '@retry-studio/topology-core';
import { decodeAmqpTable, decodeXDeath, type AmqpDecodeOptions } from '../broker/index.js';

const DISPLAY: AmqpDecodeOptions = { truncate: true, binary: 'base64', dropForbiddenKeys: true };

export function normalizeHeaders(h: unknown): AmqpTable {
  return decodeAmqpTable(h, DISPLAY);
}

const REASONS = new Set(['rejected', 'expired', 'maxlen', 'delivery_limit']);

/** x-death (of normalized headers) as SimEvent entries, names mapped with `name` (e.g. strip the deploy prefix); an unknown reason shows as 'rejected'. */
export function xDeathOf(headers: AmqpTable, name: (n: string) => string = (n) => n): XDeathEntry[] | undefined {
  const raw = headers['x-death'];
  if (!Array.isArray(raw)) return undefined;
  const out: XDeathEntry[] = [];
  for (const e of raw) {
    if (!e || typeof e !== 'object' || Array.isArray(e)) continue;
    const d = decodeXDeath(e);
    out.push({ ...d, queue: name(d.queue), reason: (REASONS.has(d.reason) ? d.reason : 'rejected') as DeathReason, exchange: name(d.exchange) });
  }
  return out;
}
