import { defineRule } from '../defineRule.js';
import { PROFILE_4_X } from '../../sim/profiles.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { isQuorum, hasLimit } from '../ruleHelpers.js';

export const quorumDefaultDeliveryLimit = defineRule({
  id: 'quorum-default-delivery-limit',
  title: 'Quorum queue without an explicit delivery limit',
  description:
    'A quorum queue without an explicit delivery limit: 4.x applies a default of 20, then dead-letters or drops the message; 3.x retried forever.',
  level: 'warning',
  help: 'Set x-delivery-limit (argument or policy) to the number of deliveries you mean.',
  check: (ctx, flow, say) =>
    ctx.design.topology.queues.flatMap((q) => {
      if (!isQuorum(flow, q.name) || hasLimit(flow, q.name)) return [];
      const noDlx = typeof flow.args.get(q.name)?.['x-dead-letter-exchange'] !== 'string';
      const given = ctx.semantics.quorumDefaultDeliveryLimit;
      const later = PROFILE_4_X.quorumDefaultDeliveryLimit!;
      return [
        given !== undefined
          ? say(
              'warning',
              `${q.name} has no x-delivery-limit: RabbitMQ ${ctx.semantics.major}.x applies a default of ${given}, so return ${given + 1} ${noDlx ? 'drops the message (no DLX)' : 'dead-letters it'}.`,
              [queueNodeId(q.name)],
              'Set delivery-limit explicitly (by policy, so it can change later) and give the queue a DLX.',
            )
          : say(
              'info',
              `${q.name} has no x-delivery-limit: on 3.10 requeues are unlimited (and go to the back of the queue); after an upgrade to 4.x a default limit of ${later} applies${noDlx ? ' and, with no DLX, drops the message' : ''}.`,
              [queueNodeId(q.name)],
              'Set delivery-limit explicitly, preferably through a policy.',
            ),
      ];
    }),
});
