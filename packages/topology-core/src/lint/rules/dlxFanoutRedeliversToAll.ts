import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const dlxFanoutRedeliversToAll: LintRule = {
  id: 'dlx-fanout-redelivers-to-all',
  title: 'Dead-lettering through a fanout to several queues',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const q of ctx.design.topology.queues) {
      const dlx = flow.args.get(q.name)!['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || flow.exchangeType(dlx) !== 'fanout') continue;
      const targets = flow.possibleQueues(dlx, undefined);
      if (targets.size < 2) continue;
      out.push(
        finding(
          'dlx-fanout-redelivers-to-all',
          'warning',
          `${q.name} dead-letters into the fanout ${dlx}, which copies each dead letter to ${targets.size} queues (${[...targets].join(', ')}): a retry of one subscriber's failure reaches every subscriber again.`,
          [queueNodeId(q.name), exchangeNodeId(dlx), ...[...targets].map(queueNodeId)],
          'Dead-letter into a direct or topic exchange with x-dead-letter-routing-key set to the queue name, so the message goes back to the queue that failed it only.',
        ),
      );
    }
    return out;
  },
};
