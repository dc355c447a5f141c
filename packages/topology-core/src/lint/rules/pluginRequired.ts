import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const pluginRequired: LintRule = {
  id: 'plugin-required',
  title: 'Needs a broker plugin or version',
  check: (ctx) => {
    const out: LintFinding[] = [];
    for (const x of ctx.design.topology.exchanges) {
      if (x.type === 'x-delayed-message')
        out.push(
          finding(
            'plugin-required',
            'info',
            `${x.name} needs the rabbitmq_delayed_message_exchange plugin (deprecated upstream; delayed messages live on one node and are lost if it fails or the plugin is disabled).`,
            [exchangeNodeId(x.name)],
            'Enable the plugin on the target broker, or use the portable compile (TTL levels) instead.',
          ),
        );
      if (x.type === 'radlx')
        out.push(
          finding(
            'plugin-required',
            ctx.profile === '3.10' ? 'error' : 'info',
            `${x.name} needs the radlx plugin (rabbitmq_retry_aware_dlx), which exists for RabbitMQ 3.13.2 to 4.1.x only${ctx.profile === '3.10' ? ': it cannot run on 3.10' : ''}.`,
            [exchangeNodeId(x.name)],
            'Deploy to a RabbitMQ 3.13/4.x broker with the plugin, or use dlx-ttl-wait-queue with an x-death count limit.',
          ),
        );
    }
    // on the 4.3 profile the broker has the feature: nothing to warn about
    if (ctx.profile !== '4.3')
      for (const q of ctx.design.topology.queues)
        if (Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-')))
          out.push(
            finding(
              'plugin-required',
              'warning',
              `${q.name} uses x-delayed-retry-*, a RabbitMQ 4.3 quorum-queue feature; older brokers ignore or refuse it.`,
              [queueNodeId(q.name)],
              'Deploy only to RabbitMQ 4.3+, or use a TTL wait queue.',
            ),
          );
    return out;
  },
};
