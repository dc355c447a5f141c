import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import type { LintFinding } from '../types.js';

export const pluginRequired = defineRule({
  id: 'plugin-required',
  title: 'Needs a broker plugin or version',
  description:
    'The design needs a broker plugin or version (delayed-message exchange, radlx, 4.3 quorum delayed retry) the target may not have.',
  level: 'info',
  help: 'Enable the plugin on the broker, or use the portable alternative (TTL wait queues).',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const x of ctx.design.topology.exchanges) {
      if (x.type === 'x-delayed-message')
        out.push(
          say(
            'info',
            `${x.name} needs the rabbitmq_delayed_message_exchange plugin (deprecated upstream; delayed messages live on one node and are lost if it fails or the plugin is disabled).`,
            [exchangeNodeId(x.name)],
            'Enable the plugin on the target broker, or use the portable compile (TTL levels) instead.',
          ),
        );
      if (x.type === 'radlx')
        out.push(
          say(
            ctx.semantics.radlxPlugin ? 'info' : 'error',
            `${x.name} needs the radlx plugin (rabbitmq_retry_aware_dlx), which exists for RabbitMQ 3.13.2 to 4.1.x only${ctx.semantics.radlxPlugin ? '' : `: it cannot run on ${ctx.profile}`}.`,
            [exchangeNodeId(x.name)],
            'Deploy to a RabbitMQ 3.13/4.x broker with the plugin, or use dlx-ttl-wait-queue with an x-death count limit.',
          ),
        );
    }
    for (const q of ctx.design.topology.queues)
      if (Object.keys(flow.settings(q.name)?.settings ?? {}).some((k) => k.startsWith('x-delayed-retry-')))
        out.push(
          say(
            'warning',
            `${q.name} uses x-delayed-retry-*, a RabbitMQ 4.3 quorum-queue feature; older brokers ignore or refuse it.`,
            [queueNodeId(q.name)],
            'Deploy only to RabbitMQ 4.3+, or use a TTL wait queue.',
          ),
        );
    return out;
  },
});
