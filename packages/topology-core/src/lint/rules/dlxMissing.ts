import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { declared } from '../ruleHelpers.js';

export const dlxMissing = defineRule({
  id: 'dlx-missing',
  title: 'Dead-letter exchange not declared',
  description: 'A queue names a dead-letter exchange that is not declared: its dead letters are dropped.',
  level: 'error',
  help: 'Declare the dead-letter exchange, or correct the x-dead-letter-exchange argument or policy.',
  check: (ctx, flow, say) =>
    ctx.design.topology.queues.flatMap((q) => {
      const dlx = flow.args.get(q.name)!['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || declared(flow, dlx)) return [];
      return [
        say(
          'error',
          `${q.name} dead-letters to ${dlx}, which is not declared: every rejected, expired or overflowing message is dropped.`,
          [queueNodeId(q.name)],
          `Declare the exchange ${dlx} (and bind a queue to it), or fix the x-dead-letter-exchange name.`,
        ),
      ];
    }),
});
