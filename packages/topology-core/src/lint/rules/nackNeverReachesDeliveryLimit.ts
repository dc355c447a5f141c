/**
 * `nack-never-reaches-delivery-limit`: on RabbitMQ 4.3 a quorum queue's delivery limit counts
 * failed deliveries only (basic.reject with requeue), not basic.nack with requeue (docs
 * quorum-queues "When is delivery count incremented?"; ../shared/reference/rabbitmq-4.3.md:
 * `quorum-delivery-limit` is redelivered forever on 4.3.6). A consumer that nacks until the
 * limit dead-letters the message loops forever on 4.3; on 4.0-4.2 it works until an upgrade.
 * A design is linted as 4.3 with the 4.3 profile, or a 4.x one that the simulator runs as 4.3
 * (usesV43Features).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { PROFILE_4_3 } from '../../sim/profiles.js';
import { usesV43Features } from '../../sim/designToSimulation.js';
import { failureActions } from '../flow.js';
import type { LintFinding } from '../types.js';

export const nackNeverReachesDeliveryLimit = defineRule({
  id: 'nack-never-reaches-delivery-limit',
  title: 'basic.nack requeue never reaches a 4.3 quorum delivery limit',
  description:
    "On RabbitMQ 4.3 a basic.nack with requeue does not count toward a quorum queue's x-delivery-limit: a guard built on nack never fires.",
  level: 'error',
  help: 'Use basic.reject with requeue (it counts), or count attempts explicitly.',
  check: (ctx, flow, say) => {
    // a 3.x line counts every return; upgrade-check says what changes on 4.3
    if (ctx.semantics.major === 3) return [];
    // 4.3's rules, or a 4.x design the simulator runs under them (usesV43Features)
    const on43 = ctx.semantics.onlyRejectsCountTowardLimit || usesV43Features(ctx.design.topology);
    const out: LintFinding[] = [];
    for (const c of ctx.design.consumers) {
      // the effective limit (argument, policy, 4.x default 20) as the 4.3 broker reads it
      const cfg = flow.config(c.queue, PROFILE_4_3);
      if (!cfg?.quorum || cfg.deliveryLimit === undefined) continue;
      const q = { name: c.queue };
      // a nack multiple (a batch consumer) is a basic.nack for every message it settles
      const nackActions = failureActions(c).filter(
        ({ action, bounded }) => !bounded && action.kind === 'requeue' && action.via !== 'reject',
      );
      if (nackActions.length === 0) continue;
      const method = nackActions.every(({ action }) => action.kind === 'requeue' && action.multiple === true)
        ? 'basic.nack multiple'
        : 'basic.nack';
      const limit = `delivery limit ${cfg.deliveryLimit}`;
      out.push(
        on43
          ? say(
              'error',
              `${c.id} requeues failed messages from ${q.name} with ${method}: on RabbitMQ 4.3 a nack no longer counts toward the quorum ${limit} (only basic.reject does), so a message that always fails is redelivered forever and never dead-letters.`,
              [consumerNodeId(c.id), queueNodeId(q.name)],
              'Requeue with basic.reject (requeue=true; it settles one delivery, so a batch is rejected one by one), or stop in the consumer (x-acquired-count counts every return on 4.3) and reject without requeue.',
            )
          : say(
              'info',
              `${c.id} relies on ${method} to reach the ${limit} of ${q.name}: that works on 4.0-4.2, but from RabbitMQ 4.3 a nack no longer counts, and the message is redelivered forever.`,
              [consumerNodeId(c.id), queueNodeId(q.name)],
              'Requeue with basic.reject (requeue=true) so the limit holds on every 4.x.',
            ),
      );
    }
    return out;
  },
});
