/**
 * The `radlx` exchange (iifawzi/rabbitmq-retry-aware-dlx, rabbit_exchange_type_retry_aware_dlx),
 * as ../../../../../shared/reference/radlx-semantics.md reads its code:
 * - `radlx-max-per-cycle` (integer > 0) and `radlx-track-queue` select the death record
 *   (track queue, `radlx-track-reason`, default and fallback `rejected`);
 * - when that record exists and count % max == 0 the message is "dead": the bindings with an
 *   empty key and header arguments are matched (strict compare, unknown x-match = all) against
 *   the headers plus `radlx.dead.source = <track queue>` (not written into the message);
 *   if none matches it falls back to topic routing;
 * - otherwise topic routing over the bindings without header arguments.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { CompiledExchange, Dest } from './exchangeIndex.js';
import { headersMatch } from './headersMatcher.js';
import { isDeathReason } from '../model/xDeath.js';
import { topicWords, topicWordsMatch } from './topicMatcher.js';

/** the dead-source queue when the message is "dead" for this cycle, else undefined */
export function radlxDeadSource(
  headers: { readonly [k: string]: AmqpValue },
  xDeath: readonly XDeathEntry[] | undefined,
): string | undefined {
  const max = headers['radlx-max-per-cycle'];
  const track = headers['radlx-track-queue'];
  if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) return undefined;
  if (typeof track !== 'string') return undefined;
  const r = headers['radlx-track-reason'];
  const reason: DeathReason = isDeathReason(r) ? r : 'rejected';
  const entry = xDeath?.find((d) => d.queue === track && d.reason === reason);
  if (!entry) return undefined;
  return entry.count % max === 0 ? track : undefined;
}

export function routeRadlx(
  x: CompiledExchange,
  routingKeys: readonly string[],
  headers: { readonly [k: string]: AmqpValue },
  xDeath: readonly XDeathEntry[] | undefined,
): Dest[] {
  const source = radlxDeadSource(headers, xDeath);
  if (source !== undefined) {
    const h = { ...headers, 'radlx.dead.source': source };
    const out: Dest[] = [];
    for (const b of x.bindings) {
      if (b.key === '' && b.hasArgs && headersMatch(b.args, h, true, 'all')) out.push(b.dest);
    }
    if (out.length > 0) return out;
  }
  const out: Dest[] = [];
  for (const rk of routingKeys) {
    const w = topicWords(rk);
    for (const b of x.bindings) if (!b.hasArgs && topicWordsMatch(b.words, w)) out.push(b.dest);
  }
  return out;
}
