/**
 * Normalisation of a delivered message's headers, exactly as the retry-scenario/1 README says:
 * - x-death keeps queue, reason, count, exchange, routing-keys and (when present)
 *   original-expiration as a string, in the broker's order (newest first); `time` is dropped;
 * - `headers` is every other header, omitted when empty; AMQP timestamps become plain numbers.
 *
 * Which x-death fields are kept is the core's rule (`normaliseDeaths` in scenario/observe.ts);
 * decoding amqplib's table (typed values, decimals, Buffers as utf8) is the broker layer's, exact.
 */
import { normaliseDeaths, type AmqpTable, type ObservedDeath } from '@retry-studio/topology-core';
import { decodeAmqpTable, decodeXDeath } from '../broker/index.js';

export interface NormalisedHeaders {
  readonly 'x-death'?: readonly ObservedDeath[];
  readonly headers?: AmqpTable;
}

export function normaliseHeaders(raw: { readonly [k: string]: unknown } | undefined | null): NormalisedHeaders {
  const out: { 'x-death'?: ObservedDeath[]; headers?: AmqpTable } = {};
  const table = decodeAmqpTable(raw);
  const deaths = table['x-death'];
  if (Array.isArray(deaths)) out['x-death'] = normaliseDeaths(deaths.map(decodeXDeath));
  const { 'x-death': _deaths, ...others } = table;
  const rest = Array.isArray(deaths) ? others : table;
  if (Object.keys(rest).length > 0) out.headers = rest;
  return out;
}
