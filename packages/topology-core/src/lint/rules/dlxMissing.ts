import { queueNodeId } from '../../model/nodeIds.js';
import { finding, declared } from '../ruleHelpers.js';
import type { LintRule } from '../types.js';

export const dlxMissing: LintRule = {
  id: 'dlx-missing',
  title: 'Dead-letter exchange not declared',
  check: (ctx, flow) =>
    ctx.design.topology.queues.flatMap((q) => {
      const dlx = flow.args.get(q.name)!['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || declared(flow, dlx)) return [];
      return [
        finding(
          'dlx-missing',
          'error',
          `${q.name} dead-letters to ${dlx}, which is not declared: every rejected, expired or overflowing message is dropped.`,
          [queueNodeId(q.name)],
          `Declare the exchange ${dlx} (and bind a queue to it), or fix the x-dead-letter-exchange name.`,
        ),
      ];
    }),
};
