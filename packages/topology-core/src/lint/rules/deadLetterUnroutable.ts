import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { finding, declared } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const deadLetterUnroutable: LintRule = {
  id: 'dead-letter-unroutable',
  title: 'Dead letters that no binding takes',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const q of ctx.design.topology.queues) {
      const a = flow.args.get(q.name)!;
      const dlx = a['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || !declared(flow, dlx) || dlx.startsWith('amq.')) continue;
      const dlrk = a['x-dead-letter-routing-key'];
      const keys = typeof dlrk === 'string' ? [dlrk] : flow.arrivalKeys(q.name);
      if (keys === undefined) continue;
      if (flow.possibleQueues(dlx, keys).size > 0) continue;
      out.push(
        finding(
          'dead-letter-unroutable',
          'warning',
          `Dead letters from ${q.name} go to ${dlx === '' ? 'the default exchange' : dlx} with routing key ${keys.map((k) => JSON.stringify(k)).join(' or ')}, which no binding matches: they are dropped silently.`,
          [queueNodeId(q.name), exchangeNodeId(dlx)],
          `Bind a queue to ${dlx === '' ? 'a DLX' : dlx} for that key, set x-dead-letter-routing-key, or give the DLX an alternate exchange.`,
        ),
      );
    }
    return out;
  },
};
