/**
 * `dead-letter-queue-unreachable`: a queue bound only to dead-letter exchanges, with keys that
 * none of the dead letters reaching those exchanges carries (their dead-letter routing key, else
 * the key they arrived with: lint/arrivalKeys.ts; topic patterns decided exactly by
 * routing/topicOverlap.ts). Nothing ever reaches it: the failures it was declared to keep go
 * elsewhere, or are dropped (dead-letter-unroutable says which).
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { keyPasses } from '../arrivalKeys.js';
import { nameList } from '../../text/nameList.js';
import type { LintFinding } from '../types.js';

export const deadLetterQueueUnreachable = defineRule({
  id: 'dead-letter-queue-unreachable',
  title: 'A dead-letter queue no dead letter reaches',
  description:
    'A queue is bound only to dead-letter exchanges, with keys none of the dead letters reaching them carries (their dead-letter routing key, else the key they arrived with): nothing ever reaches it.',
  level: 'warning',
  help: 'Bind the queue with the key the dead letters carry (or "#" on a topic exchange), or set x-dead-letter-routing-key on the queues that dead-letter there.',
  check: (ctx, flow, say) => {
    const dlxs = new Set<string>();
    for (const a of flow.args.values())
      if (typeof a['x-dead-letter-exchange'] === 'string') dlxs.add(a['x-dead-letter-exchange']);
    const inbound = new Map<string, { source: string; key: string }[]>();
    for (const b of ctx.design.topology.bindings)
      if (b.destination_type === 'queue')
        inbound.set(b.destination, [...(inbound.get(b.destination) ?? []), { source: b.source, key: b.routing_key }]);
    const out: LintFinding[] = [];
    for (const [queue, bindings] of inbound) {
      if (!bindings.every((b) => dlxs.has(b.source))) continue;
      const carried = new Set<string>();
      let reached = false;
      for (const b of bindings) {
        const x = flow.index.exchanges.get(b.source);
        const keys = flow.keysAtExchange(b.source);
        // any key, a fanout or headers exchange, or nothing reaching the exchange at all (another rule's): not this one
        if (!x || keys === undefined || keys.length === 0 || (x.match !== 'direct' && x.match !== 'topic')) {
          reached = true;
          break;
        }
        if (keys.some((k) => keyPasses(x.match, b.key, k))) {
          reached = true;
          break;
        }
        for (const k of keys) carried.add(k);
      }
      if (reached) continue;
      const sources = [...new Set(bindings.map((b) => b.source))];
      const bound = [...new Set(bindings.map((b) => JSON.stringify(b.key)))];
      out.push(
        say(
          'warning',
          `${queue} is bound to ${nameList(sources)} with ${bound.join(', ')}, but the dead letters that reach ${sources.length === 1 ? 'it' : 'them'} carry ${nameList([...carried].map((k) => JSON.stringify(k)))}: none matches, so nothing ever reaches ${queue}.`,
          [queueNodeId(queue), ...sources.map(exchangeNodeId)],
          `Bind ${queue} with the key the dead letters carry (or "#" on a topic exchange), or set x-dead-letter-routing-key ${bound[0]} on the queues that dead-letter into ${sources[0]}.`,
        ),
      );
    }
    return out;
  },
});
