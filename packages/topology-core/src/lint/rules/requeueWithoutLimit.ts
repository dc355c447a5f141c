import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { failureActions } from '../flow.js';

import type { LintFinding } from '../types.js';

export const requeueWithoutLimit = defineRule({
  id: 'requeue-without-limit',
  title: 'Requeue with nothing to stop it',
  description:
    'A consumer requeues a failed message with nothing to stop it (no delivery limit, no counter): the message is redelivered at once, forever, and blocks the queue.',
  level: 'error',
  help: 'Give the queue a quorum delivery limit, count attempts in the consumer, or dead-letter instead of requeueing.',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const c of ctx.design.consumers)
      for (const { action, bounded } of failureActions(c)) {
        if (action.kind !== 'requeue' || bounded) continue;
        // a quorum queue's delivery limit (argument, policy, or the profile's default) ends it
        if (flow.config(c.queue)?.deliveryLimit !== undefined) continue;
        out.push(
          say(
            'error',
            `${c.id} requeues failed messages from ${c.queue} with no limit: a message that always fails is redelivered at once, forever, and blocks the queue.`,
            [consumerNodeId(c.id), queueNodeId(c.queue)],
            'Requeue only when redelivered is false (or below an attempt count), or use a quorum queue with x-delivery-limit and a DLX.',
          ),
        );
        break;
      }
    return out;
  },
});
