import { exchangeNodeId, publisherNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import { exchangeEffectiveSettings } from '../../model/effectiveSettings.js';
import type { LintFinding, LintRule } from '../types.js';

export const delayedExchangeMandatory: LintRule = {
  id: 'delayed-exchange-mandatory',
  title: 'mandatory or an alternate exchange on a delayed exchange',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const p of ctx.design.publishers)
      if (p.mandatory && flow.exchangeType(p.exchange) === 'x-delayed-message')
        out.push(
          finding(
            'delayed-exchange-mandatory',
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
          finding(
            'delayed-exchange-mandatory',
            'warning',
            `${x.name} is a delayed exchange with an alternate exchange: the AE receives a copy of every delayed message at once (plugin issue #36).`,
            [exchangeNodeId(x.name)],
            'Remove alternate-exchange (argument or policy) from the delayed exchange.',
          ),
        );
    return out;
  },
};
