import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { failureActions } from '../flow.js';
import { finding, isQuorum, hasLimit } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const requeueWithoutLimit: LintRule = {
  id: 'requeue-without-limit',
  title: 'Requeue with nothing to stop it',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const c of ctx.design.consumers)
      for (const { action, bounded } of failureActions(c)) {
        if (action.kind !== 'requeue' || bounded) continue;
        if (isQuorum(flow, c.queue) && (hasLimit(flow, c.queue) || ctx.profile !== '3.10')) continue;
        out.push(
          finding(
            'requeue-without-limit',
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
};
