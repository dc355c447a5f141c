/**
 * `policy-priority-tie`: two or more policies of the same priority match a queue, so RabbitMQ
 * applies one of them and which one is unspecified (model/policyTies.ts). Names every tied
 * queue, the policies, the settings at stake and the policy the core assumed (or the one the
 * broker reported, for a live vhost). One finding per set of tied policies.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { describeStake, policyTies } from '../../model/policyTies.js';

export const policyPriorityTie = defineRule({
  id: 'policy-priority-tie',
  title: 'Policies of equal priority match the same queue',
  description:
    "Two or more policies of equal priority match a queue: RabbitMQ's choice among them is unspecified (it differs between brokers and vhosts), so the queue may not get the settings you expect.",
  level: 'warning',
  help: 'Give the policies different priorities, or make their patterns disjoint.',
  check: (ctx, _flow, say) =>
    policyTies(ctx.design.topology).map((t) => {
      const pols = t.policies.join(' and ');
      const qs = t.queues.length === 1 ? `queue ${t.queues[0]}` : `${t.queues.length} queues (${t.queues.join(', ')})`;
      const stake =
        t.atStake.length > 0 ? ` At stake: ${t.atStake.map(describeStake).join(', ')}.` : ' They set the same values.';
      const which = t.pinned
        ? ` The broker applies ${t.assumed} (read from the live vhost): lint and simulate use that.`
        : ` Lint and simulate assume ${t.assumed}; the broker may apply another one.`;
      return say(
        t.atStake.length > 0 ? 'warning' : 'info',
        `Policies ${pols} (priority ${t.priority}) both match ${qs}: RabbitMQ applies one of them, and which one is unspecified (measured: it differs between broker versions and between vhosts).${stake}${which}`,
        t.queues.map(queueNodeId),
        `Give the policies different priorities (the one that must win higher), or narrow their patterns so that one policy matches each queue.`,
      );
    }),
});
