/**
 * `plugin-required`: the design needs a broker plugin or version. A plugin exchange type on a
 * broker without the plugin is refused, and a definitions import stops there: measured on 3.10.8
 * and 4.3.6 (lintTruths.integration.test.ts), "unknown exchange type 'x-delayed-message'", nothing
 * of the file created. So: an error for a target known to lack it (`plugins` given, or a broker line
 * the plugin does not exist for), a warning while the target's plugins are not known, a note where
 * the target has it.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import type { LintContext, LintFinding, LintSeverity } from '../types.js';

const DELAYED = 'rabbitmq_delayed_message_exchange';
const RADLX = 'rabbitmq_retry_aware_dlx';
const REFUSED =
  'a broker without it refuses the exchange ("unknown exchange type", measured on 3.10.8 and 4.3.6) and a definitions import stops there, nothing of the file created';

const POLICY_REFUSED =
  'a broker without it refuses the whole definitions import with 400 "are not recognised policy settings", after creating the exchanges listed before it (measured on 3.10.8 and 4.3.6: corpus/README.md)';

/** error: the target lacks it; warning: not known; info: the target has it */
function severity(ctx: LintContext, plugin: string, lineHasIt = true): LintSeverity {
  if (!lineHasIt) return 'error';
  if (ctx.plugins === undefined) return 'warning';
  return ctx.plugins.includes(plugin) ? 'info' : 'error';
}

const lacks = (ctx: LintContext, plugin: string): string =>
  ctx.plugins === undefined
    ? ''
    : ctx.plugins.includes(plugin)
      ? ''
      : ` The target's plugins (${ctx.plugins.join(', ') || 'none'}) do not include it.`;

export const pluginRequired = defineRule({
  id: 'plugin-required',
  title: 'Needs a broker plugin or version',
  description:
    'The design needs a broker plugin or version (delayed-message exchange, radlx, federation policy keys, 4.3 quorum delayed retry). A broker without the plugin refuses the exchange or policy, and a definitions import stops there (measured on 3.10.8 and 4.3.6).',
  level: 'warning',
  help: 'Enable the plugin on the broker (lint --plugins says which the target has), or use the portable alternative (TTL wait queues).',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const x of ctx.design.topology.exchanges) {
      if (x.type === 'x-delayed-message')
        out.push(
          say(
            severity(ctx, DELAYED),
            `${x.name} needs the ${DELAYED} plugin: ${REFUSED}. The plugin is deprecated upstream; delayed messages live on one node and are lost if it fails or the plugin is disabled.${lacks(ctx, DELAYED)}`,
            [exchangeNodeId(x.name)],
            'Enable the plugin on the target broker, or use the portable compile (TTL levels) instead.',
          ),
        );
      if (x.type === 'radlx')
        out.push(
          say(
            severity(ctx, RADLX, ctx.semantics.radlxPlugin),
            `${x.name} needs the radlx plugin (${RADLX}), which exists for RabbitMQ 3.13.2 to 4.1.x only${ctx.semantics.radlxPlugin ? '' : `: it cannot run on ${ctx.profile}`}; ${REFUSED}.${lacks(ctx, RADLX)}`,
            [exchangeNodeId(x.name)],
            'Deploy to a RabbitMQ 3.13/4.x broker with the plugin, or use dlx-ttl-wait-queue with an x-death count limit.',
          ),
        );
    }
    // a policy key a plugin defines (federation), dropped at import: the policy is not in the design, the refusal is
    for (const k of ctx.pluginPolicyKeys)
      out.push(
        say(
          severity(ctx, k.plugin),
          `policy ${k.policy} sets ${k.key}, which needs the ${k.plugin} plugin: ${POLICY_REFUSED}.${lacks(ctx, k.plugin)}`,
          [],
          `Enable ${k.plugin} on the target broker, or drop the policy from the file for a broker without it.`,
        ),
      );
    // a broker line with quorum delayed retry has the feature: nothing to warn about
    if (!ctx.semantics.quorumDelayedRetry)
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
