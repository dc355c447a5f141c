import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { actionTargets } from '../flow.js';
import { allActions, isComputed } from '../ruleHelpers.js';
import type { LintFinding } from '../types.js';

export const perMessageTtlHeadOfLine = defineRule({
  id: 'per-message-ttl-head-of-line',
  title: 'Different per-message TTLs in one queue',
  description:
    'Messages with different per-message TTLs wait in one queue: RabbitMQ expires only the head, so a short delay waits behind a long one.',
  level: 'warning',
  help: 'One wait queue per delay (queue TTL), or the delayed-message exchange.',
  check: (ctx, flow, say) => {
    const byQueue = new Map<string, Set<string>>();
    for (const { consumer, queue, action } of allActions(ctx)) {
      if (action.kind !== 'republish' || action.expiration === undefined) continue;
      const varies = isComputed(action.expiration);
      for (const t of actionTargets(flow, queue, action)) {
        if (flow.consumersByQueue.has(t)) continue;
        const s = byQueue.get(t) ?? new Set<string>();
        s.add(varies ? `${consumer}:*` : `${consumer}:${String(action.expiration)}`);
        if (varies) s.add('computed');
        byQueue.set(t, s);
      }
    }
    for (const p of ctx.design.publishers) {
      const exp = p.properties?.expiration;
      if (exp === undefined) continue;
      for (const t of flow.possibleQueues(p.exchange, [p.routingKey])) {
        if (flow.consumersByQueue.has(t)) continue;
        const s = byQueue.get(t) ?? new Set<string>();
        s.add(`publisher:${exp}`);
        byQueue.set(t, s);
      }
    }
    const out: LintFinding[] = [];
    for (const [q, s] of byQueue) {
      if (s.size < 2 && !s.has('computed')) continue;
      out.push(
        say(
          'warning',
          `${q} holds messages with different per-message TTLs. RabbitMQ expires messages only at the head of a queue, so a short delay waits behind a longer one in front of it.`,
          [queueNodeId(q)],
          'Use one wait queue per delay with a queue-level x-message-ttl (chained TTL tiers or binary delay levels), or a delayed-message exchange.',
        ),
      );
    }
    return out;
  },
});
