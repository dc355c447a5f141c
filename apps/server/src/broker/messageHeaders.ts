/**
 * A delivered message's headers, read once by the broker layer's decoder (amqpValues.ts) and
 * shaped for one of two readers:
 * - the browser (the live trace; reliability-security.md case 20): the display limits (long
 *   strings, binaries and arrays cut, base64 previews, no `__proto__`/`constructor`/`prototype`
 *   keys), and x-death as SimEvent entries (`xDeathOf`);
 * - a retry-scenario/1 observation (the conformance runner), exactly as its README says: x-death
 *   keeps queue, reason, count, exchange, routing-keys and (when present) original-expiration as a
 *   string, in the broker's order (newest first), `time` dropped; `headers` is every other header,
 *   omitted when empty; AMQP timestamps become plain numbers.
 * Which x-death fields a scenario keeps is the core's rule (`normaliseDeaths` in scenario/observe.ts);
 * decoding amqplib's table (typed values, decimals, Buffers as utf8) is the decoder's, exact.
 */
import { parseXDeath, type AmqpTable, type XDeathEntry } from '@retry-studio/topology-core/model';
import { normaliseDeaths, type ObservedDeath } from '@retry-studio/topology-core/scenario';
import { decodeAmqpTable, decodeXDeath, type AmqpDecodeOptions } from './amqpValues.js';

const DISPLAY: AmqpDecodeOptions = { truncate: true, binary: 'base64', dropForbiddenKeys: true };

/** Headers for the browser: decoded with the display limits. */
export function headersForDisplay(h: unknown): AmqpTable {
  return decodeAmqpTable(h, DISPLAY);
}

/** x-death (of headers for display) as SimEvent entries (the core's parser), names mapped with `name` (e.g. strip the deploy prefix). */
export function xDeathOf(headers: AmqpTable, name?: (n: string) => string): XDeathEntry[] | undefined {
  const deaths = parseXDeath(headers['x-death']);
  return name && deaths ? renameDeaths(deaths, name) : deaths;
}

/** x-death entries with their queue and exchange names mapped (parsed once, named for another reader) */
export function renameDeaths(deaths: readonly XDeathEntry[], name: (n: string) => string): XDeathEntry[] {
  return deaths.map((d) => ({ ...d, queue: name(d.queue), exchange: name(d.exchange) }));
}

/** A delivery's headers as a retry-scenario/1 observation records them. */
export interface ScenarioHeaders {
  readonly 'x-death'?: readonly ObservedDeath[];
  readonly headers?: AmqpTable;
}

export function headersForScenario(raw: { readonly [k: string]: unknown } | undefined | null): ScenarioHeaders {
  const out: { 'x-death'?: ObservedDeath[]; headers?: AmqpTable } = {};
  const table = decodeAmqpTable(raw);
  const deaths = table['x-death'];
  if (Array.isArray(deaths)) out['x-death'] = normaliseDeaths(deaths.map(decodeXDeath));
  const { 'x-death': _deaths, ...others } = table;
  const rest = Array.isArray(deaths) ? others : table;
  if (Object.keys(rest).length > 0) out.headers = rest;
  return out;
}
