/**
 * `dead-letter-unroutable`: a dead-letter exchange that routes none of a family of a queue's dead
 * letters (no binding, exchange binding or alternate exchange takes their routing key) drops them.
 * The keys are the queue's dead-letter routing key, else the keys its messages can carry
 * (lint/arrivalKeys.ts; its own name only when nothing else brings messages). Dead letters keep
 * their original key: a queue bound with a wildcard (`audit.#`) carries the family that pattern
 * matches; a family routes when some binding on the way overlaps it, decided exactly
 * (routing/topicOverlap.ts through flow.possibleQueues): a `#` catch-all routes whenever the DLX
 * binds anything, and each family no binding overlaps is named. Only when the keys are any key (a
 * fanout or headers hop from a client's publish) do the dead letters drop only if no key at all
 * routes. One finding per exchange.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId, type NodeId } from '../../model/nodeIds.js';
import type { ExchangeIndex } from '../../routing/exchangeIndex.js';
import { declared } from '../ruleHelpers.js';
import type { LintFinding } from '../types.js';
import { topicMatches } from '../../routing/topicMatcher.js';
import { hasWildcard } from '../arrivalKeys.js';

/** Whether a headers or radlx exchange with bindings is on the way from `dlx`: routing then depends on more than the key. */
function undecidableFrom(index: ExchangeIndex, dlx: string): boolean {
  const seen = new Set<string>();
  const work = [dlx];
  while (work.length > 0) {
    const x = index.exchanges.get(work.pop()!);
    if (!x || seen.has(x.name)) continue;
    seen.add(x.name);
    if ((x.match === 'headers' || x.match === 'radlx') && x.bindings.length > 0) return true;
    for (const b of x.bindings) if (b.dest.kind === 'exchange') work.push(b.dest.name);
    if (x.alternate !== undefined) work.push(x.alternate);
  }
  return false;
}

export const deadLetterUnroutable = defineRule({
  id: 'dead-letter-unroutable',
  title: 'Dead letters that no binding takes',
  description:
    "A queue's dead letters reach a dead-letter exchange with no binding (or alternate exchange) for their routing key: RabbitMQ drops them.",
  level: 'warning',
  help: "Bind a queue to the dead-letter exchange for the queue's dead-letter routing key, or give the exchange an alternate exchange.",
  check: (ctx, flow, say) => {
    const byExchange = new Map<string, { queue: string; keys: string }[]>();
    const undecidable = new Map<string, boolean>();
    // a key family routes when some binding on the way takes some key of it (topic patterns overlap exactly:
    // routing/topicOverlap.ts, through flow.possibleQueues); the default exchange by a queue's name
    const routes = (dlx: string, k: string): boolean =>
      dlx === '' && hasWildcard(k)
        ? [...flow.index.queues].some((q) => topicMatches(k, q))
        : flow.possibleQueues(dlx, [k]).size > 0;
    for (const q of ctx.design.topology.queues) {
      const a = flow.args.get(q.name)!;
      const dlx = a['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || !declared(flow, dlx) || (dlx !== '' && !flow.index.exchanges.has(dlx))) continue;
      const dlrk = a['x-dead-letter-routing-key'];
      // the queue's own name is a key only for a publish straight to it (default exchange): judge by its bindings' keys when it has some
      const arrival = flow.arrivalKeys(q.name);
      const bound = arrival?.filter((k) => k !== q.name);
      const keys = typeof dlrk === 'string' ? [dlrk] : bound !== undefined && bound.length > 0 ? bound : arrival;
      if (!undecidable.has(dlx)) undecidable.set(dlx, dlx !== '' && undecidableFrom(flow.index, dlx));
      if (undecidable.get(dlx)) continue;
      // nothing reaches the queue: nothing to drop
      if (keys !== undefined && keys.length === 0) continue;
      // any key: dropped only if no key at all gets through
      if (keys === undefined) {
        if (flow.possibleQueues(dlx, undefined).size > 0) continue;
      }
      // each key family on its own: a `#` catch-all that some binding takes routes; `order.*` beside `payment.#` drops
      const dropped = keys === undefined ? undefined : keys.filter((k) => !routes(dlx, k));
      if (dropped !== undefined && dropped.length === 0) continue;
      const list = byExchange.get(dlx) ?? [];
      list.push({
        queue: q.name,
        keys:
          dropped === undefined
            ? 'any key'
            : dropped
                .map((k) => (hasWildcard(k) ? `keys matching ${JSON.stringify(k)}` : JSON.stringify(k)))
                .join(' or '),
      });
      byExchange.set(dlx, list);
    }
    const out: LintFinding[] = [];
    for (const [dlx, list] of byExchange) {
      const name = dlx === '' ? 'the default exchange' : dlx;
      const how =
        dlx !== '' &&
        flow.index.exchanges.get(dlx)?.bindings.length === 0 &&
        flow.index.exchanges.get(dlx)?.alternate === undefined
          ? `${name} has no binding and no alternate exchange`
          : `no binding or alternate exchange of ${name} takes their routing key`;
      const queues = list.map((x) => `${x.queue} (${x.keys})`).join(', ');
      out.push(
        say(
          'warning',
          `Dead letters from ${list.length === 1 ? list[0]!.queue : `${list.length} queues`} go to ${name}, and ${how}: they are dropped silently. ${list.length === 1 ? `Routing key: ${list[0]!.keys}.` : `Queues (routing keys): ${queues}.`}`,
          [exchangeNodeId(dlx), ...list.map((x): NodeId => queueNodeId(x.queue))],
          `Bind a queue to ${dlx === '' ? 'a DLX' : dlx} for those keys (e.g. "#" on a topic exchange), set x-dead-letter-routing-key, or give the DLX an alternate exchange.`,
        ),
      );
    }
    return out;
  },
});
