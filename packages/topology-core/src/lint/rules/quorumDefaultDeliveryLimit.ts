import { queueNodeId } from '../../model/nodeIds.js';
import { finding, isQuorum, hasLimit } from '../ruleHelpers.js';
import type { LintRule } from '../types.js';

export const quorumDefaultDeliveryLimit: LintRule = {
  id: 'quorum-default-delivery-limit',
  title: 'Quorum queue without an explicit delivery limit',
  check: (ctx, flow) =>
    ctx.design.topology.queues.flatMap((q) => {
      if (!isQuorum(flow, q.name) || hasLimit(flow, q.name)) return [];
      const noDlx = typeof flow.args.get(q.name)!['x-dead-letter-exchange'] !== 'string';
      return [
        ctx.profile !== '3.10'
          ? finding(
              'quorum-default-delivery-limit',
              'warning',
              `${q.name} has no x-delivery-limit: RabbitMQ 4.x applies a default of 20, so the 21st return ${noDlx ? 'drops the message (no DLX)' : 'dead-letters it'}.`,
              [queueNodeId(q.name)],
              'Set delivery-limit explicitly (by policy, so it can change later) and give the queue a DLX.',
            )
          : finding(
              'quorum-default-delivery-limit',
              'info',
              `${q.name} has no x-delivery-limit: on 3.10 requeues are unlimited (and go to the back of the queue); after an upgrade to 4.x a default limit of 20 applies${noDlx ? ' and, with no DLX, drops the message' : ''}.`,
              [queueNodeId(q.name)],
              'Set delivery-limit explicitly, preferably through a policy.',
            ),
      ];
    }),
};
