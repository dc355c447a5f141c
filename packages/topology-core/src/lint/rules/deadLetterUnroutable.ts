/**
 * `dead-letter-unroutable`: a dead-letter exchange that routes none of a queue's dead letters
 * (no binding, exchange binding or alternate exchange takes their routing key) drops them.
 * The keys are the queue's dead-letter routing key, else the keys its messages can carry
 * (lint/arrivalKeys.ts; its own name only when nothing else brings messages). Dead letters keep
 * their original key: a queue bound with a wildcard (`audit.#`) carries the keys that pattern
 * matches, tried by a key it matches (`audit`), never taken for "any key". Only when the keys are
 * any key (a fanout or headers hop from a client's publish) do the dead letters drop only if no key
 * at all routes, so every binding key of the exchange graph is tried. The routing itself is the core's (routing/route.ts). One finding per exchange.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId, type NodeId } from '../../model/nodeIds.js';
import { route } from '../../routing/route.js';
import type { ExchangeIndex } from '../../routing/exchangeIndex.js';
import { declared } from '../ruleHelpers.js';
import type { LintFinding } from '../types.js';
import { sampleTopicKey } from '../../routing/topicMatcher.js';
import { hasWildcard } from '../arrivalKeys.js';

interface Reach {
  /** a headers or radlx exchange with bindings is on the way: routing depends on more than the key */
  readonly undecidable: boolean;
  /** every binding key on the way (sampled for topic patterns) */
  readonly keys: readonly string[];
}

/** The exchanges a message entering `dlx` can visit, and the keys their bindings take. */
function reachOf(index: ExchangeIndex, dlx: string): Reach {
  const seen = new Set<string>();
  const work = [dlx];
  const keys = new Set<string>();
  let undecidable = false;
  while (work.length > 0) {
    const x = index.exchanges.get(work.pop()!);
    if (!x || seen.has(x.name)) continue;
    seen.add(x.name);
    if ((x.match === 'headers' || x.match === 'radlx') && x.bindings.length > 0) undecidable = true;
    for (const b of x.bindings) {
      keys.add(x.match === 'topic' ? sampleTopicKey(b.key) : b.key);
      if (b.dest.kind === 'exchange') work.push(b.dest.name);
    }
    if (x.alternate !== undefined) work.push(x.alternate);
  }
  return { undecidable, keys: [...keys] };
}

const routes = (index: ExchangeIndex, dlx: string, key: string): boolean =>
  route(index, dlx, { routingKeys: [key], headers: {}, xDeath: undefined }, { strictHeaders: false, delayDone: true })
    .queues.length > 0;

export const deadLetterUnroutable = defineRule({
  id: 'dead-letter-unroutable',
  title: 'Dead letters that no binding takes',
  description:
    "A queue's dead letters reach a dead-letter exchange with no binding (or alternate exchange) for their routing key: RabbitMQ drops them.",
  level: 'warning',
  help: "Bind a queue to the dead-letter exchange for the queue's dead-letter routing key, or give the exchange an alternate exchange.",
  check: (ctx, flow, say) => {
    const byExchange = new Map<string, { queue: string; keys: string }[]>();
    const reach = new Map<string, Reach>();
    for (const q of ctx.design.topology.queues) {
      const a = flow.args.get(q.name)!;
      const dlx = a['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || !declared(flow, dlx) || (dlx !== '' && !flow.index.exchanges.has(dlx))) continue;
      const dlrk = a['x-dead-letter-routing-key'];
      // the queue's own name is a key only for a publish straight to it (default exchange): judge by its bindings' keys when it has some
      const arrival = flow.arrivalKeys(q.name);
      const bound = arrival?.filter((k) => k !== q.name);
      const keys = typeof dlrk === 'string' ? [dlrk] : bound !== undefined && bound.length > 0 ? bound : arrival;
      let r = reach.get(dlx);
      if (!r)
        reach.set(
          dlx,
          (r = dlx === '' ? { undecidable: false, keys: [...flow.index.queues] } : reachOf(flow.index, dlx)),
        );
      if (r.undecidable) continue;
      // nothing reaches the queue: nothing to drop
      if (keys !== undefined && keys.length === 0) continue;
      // any key: dropped only if no key at all gets through; a wildcard binding's keys (a pattern) by a key it matches
      const tried = keys?.map((k) => (hasWildcard(k) ? sampleTopicKey(k) : k)) ?? r.keys;
      if (tried.some((k) => routes(flow.index, dlx, k))) continue;
      const list = byExchange.get(dlx) ?? [];
      list.push({
        queue: q.name,
        keys:
          keys === undefined
            ? 'any key'
            : keys.map((k) => (hasWildcard(k) ? `keys matching ${JSON.stringify(k)}` : JSON.stringify(k))).join(' or '),
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
