import { defineRule } from '../defineRule.js';
import { exchangeNodeId, publisherNodeId } from '../../model/nodeIds.js';
import { exchangeEffectiveSettings } from '../../model/effectiveSettings.js';
import type { LintFinding } from '../types.js';

export const delayedExchangeMandatory = defineRule({
  id: 'delayed-exchange-mandatory',
  title: 'mandatory or an alternate exchange on a delayed exchange',
  description:
    'mandatory publishing or an alternate exchange on a delayed-message exchange: the plugin returns or reroutes at publish time, before the delay.',
  level: 'warning',
  help: 'Do not rely on mandatory or an alternate exchange with the delayed-message exchange.',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const p of ctx.design.publishers)
      if (p.mandatory && flow.exchangeType(p.exchange) === 'x-delayed-message')
        out.push(
          say(
            'warning',
            `${p.id} publishes with mandatory=true to the delayed exchange ${p.exchange}: the plugin routes to nothing at publish time, so every message comes back as basic.return 312 NO_ROUTE although it is delivered later.`,
            [publisherNodeId(p.id), exchangeNodeId(p.exchange)],
            'Publish without mandatory to delayed exchanges.',
          ),
        );
    for (const x of ctx.design.topology.exchanges)
      if (
        x.type === 'x-delayed-message' &&
        typeof exchangeEffectiveSettings(x, ctx.design.topology).settings['alternate-exchange']?.value === 'string'
      )
        out.push(
          say(
            'warning',
            `${x.name} is a delayed exchange with an alternate exchange: the AE receives a copy of every delayed message at once (plugin issue #36).`,
            [exchangeNodeId(x.name)],
            'Remove alternate-exchange (argument or policy) from the delayed exchange.',
          ),
        );
    return out;
  },
});
