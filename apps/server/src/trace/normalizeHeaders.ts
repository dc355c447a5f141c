/**
 * Headers for the browser (reliability-security.md case 20): the broker layer's decoder with the
 * trace's display limits (long strings, binaries and arrays cut, base64 previews, no
 * `__proto__`/`constructor`/`prototype` keys), and x-death as SimEvent entries.
 */
import { parseXDeath, type AmqpTable, type XDeathEntry } from '@retry-studio/topology-core';
import { decodeAmqpTable, type AmqpDecodeOptions } from '../broker/index.js';

const DISPLAY: AmqpDecodeOptions = { truncate: true, binary: 'base64', dropForbiddenKeys: true };

export function normalizeHeaders(h: unknown): AmqpTable {
  return decodeAmqpTable(h, DISPLAY);
}

/** x-death (of normalized headers) as SimEvent entries (the core's parser), names mapped with `name` (e.g. strip the deploy prefix). */
export function xDeathOf(headers: AmqpTable, name: (n: string) => string = (n) => n): XDeathEntry[] | undefined {
  return parseXDeath(headers['x-death'])?.map((d) => ({ ...d, queue: name(d.queue), exchange: name(d.exchange) }));
}
