/**
 * `policy-skipped-by-queue-type`: a policy matches a queue whose type does not take one of its keys,
 * and RabbitMQ then applies no policy to that queue at all: a classic queue takes no policy with
 * `delivery-limit`, neither a classic nor a quorum queue one with a stream's retention (`max-age`,
 * `stream-max-segment-size-bytes`). Measured on 3.10.8 and 4.3.6 (model/policyMatch.ts): a DLQ policy
 * of `message-ttl` and `max-age` leaves a classic DLQ with no TTL. The queue's other settings come
 * from the next policy that does apply, or none.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { keysNotFor, policyPatternMatches, policyTargetOf } from '../../model/policyMatch.js';
import { nameList } from '../../text/nameList.js';
import type { LintFinding } from '../types.js';

export const policySkippedByQueueType = defineRule({
  id: 'policy-skipped-by-queue-type',
  title: "A policy a queue's type does not take",
  description:
    "A policy matches a queue whose type does not take one of its keys (delivery-limit on a classic queue; a stream's max-age or stream-max-segment-size-bytes on a classic or quorum queue): RabbitMQ applies no part of that policy to the queue (measured on 3.10.8 and 4.3.6), so its other settings (a TTL, a dead-letter exchange) are missing there too.",
  level: 'warning',
  help: 'Move the key into a policy of its own for the queues that take it (apply-to streams or quorum_queues on 3.12+, or a narrower pattern), or drop it.',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const p of ctx.design.topology.policies ?? []) {
      const skipped = new Map<string, string[]>();
      for (const q of ctx.design.topology.queues) {
        const type = flow.args.get(q.name)?.['x-queue-type'];
        const target = policyTargetOf(type);
        if (!policyPatternMatches(p, q.name, target)) continue;
        const keys = keysNotFor(p, target);
        if (keys.length === 0) continue;
        const k = `${target === 'classic' ? 'classic' : String(type)}\u0000${keys.join(', ')}`;
        skipped.set(k, [...(skipped.get(k) ?? []), q.name]);
      }
      for (const [k, queues] of skipped) {
        const [type, keys] = k.split('\u0000') as [string, string];
        const others = Object.keys(p.definition).filter((d) => !keys.split(', ').includes(d));
        out.push(
          say(
            'warning',
            `policy ${p.name} sets ${keys}, which a ${type} queue does not take: RabbitMQ applies none of the policy to ${nameList(queues)} (measured on 3.10.8 and 4.3.6)${others.length ? `, so its ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} not in force there either` : ''}.`,
            queues.map(queueNodeId),
            `Give ${keys} a policy of its own for the queues that take it${keys.includes('max-age') || keys.includes('stream-') ? ' (apply-to streams on 3.12+, or a pattern for the streams alone)' : ''}, and keep ${others.length ? others.join(', ') : 'the rest'} in a policy ${nameList(queues, 3)} take.`,
          ),
        );
      }
    }
    return out;
  },
});
