import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';

export const dlRoutingKeyWithoutDlx = defineRule({
  id: 'dl-routing-key-without-dlx',
  title: 'Dead-letter routing key without a dead-letter exchange',
  description:
    'A dead-letter routing key without a dead-letter exchange: RabbitMQ ignores it and the dead letters are dropped.',
  level: 'error',
  help: 'Add x-dead-letter-exchange (the default exchange is "").',
  check: (ctx, flow, say) =>
    ctx.design.topology.queues.flatMap((q) => {
      const a = flow.args.get(q.name)!;
      if (a['x-dead-letter-routing-key'] === undefined || a['x-dead-letter-exchange'] !== undefined) return [];
      return [
        say(
          'error',
          `${q.name} sets a dead-letter routing key but no dead-letter exchange: nothing is dead-lettered (the broker refuses the declaration with routing_key_but_no_dlx_defined).`,
          [queueNodeId(q.name)],
          'Add x-dead-letter-exchange ("" for the default exchange) or remove the routing key.',
        ),
      ];
    }),
});
