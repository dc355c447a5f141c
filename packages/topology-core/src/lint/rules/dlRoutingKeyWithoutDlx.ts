import { queueNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import type { LintRule } from '../types.js';

export const dlRoutingKeyWithoutDlx: LintRule = {
  id: 'dl-routing-key-without-dlx',
  title: 'Dead-letter routing key without a dead-letter exchange',
  check: (ctx, flow) =>
    ctx.design.topology.queues.flatMap((q) => {
      const a = flow.args.get(q.name)!;
      if (a['x-dead-letter-routing-key'] === undefined || a['x-dead-letter-exchange'] !== undefined) return [];
      return [
        finding(
          'dl-routing-key-without-dlx',
          'error',
          `${q.name} sets a dead-letter routing key but no dead-letter exchange: nothing is dead-lettered (the broker refuses the declaration with routing_key_but_no_dlx_defined).`,
          [queueNodeId(q.name)],
          'Add x-dead-letter-exchange ("" for the default exchange) or remove the routing key.',
        ),
      ];
    }),
};
