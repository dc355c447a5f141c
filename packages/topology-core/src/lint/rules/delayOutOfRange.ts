import { MAX_TTL_MS } from '../../model/arguments.js';
import { consumerNodeId, publisherNodeId } from '../../model/nodeIds.js';
import { finding, allActions, possibleNumbers } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const delayOutOfRange: LintRule = {
  id: 'delay-out-of-range',
  title: 'x-delay outside 1..2^32-1 ms',
  check: (ctx) => {
    const out: LintFinding[] = [];
    const bad = (vals: number[]): number | undefined => vals.find((v) => !(v > 0 && v <= MAX_TTL_MS));
    for (const { consumer, action } of allActions(ctx)) {
      if (action.kind !== 'republish' || !action.headers || !('x-delay' in action.headers)) continue;
      const v = bad(possibleNumbers(action.headers['x-delay']));
      if (v !== undefined)
        out.push(
          finding(
            'delay-out-of-range',
            'warning',
            `${consumer} republishes with x-delay ${v}: the delayed-message exchange only delays 0 < d <= 4294967295 ms and routes anything else at once.`,
            [consumerNodeId(consumer)],
            'Keep delays between 1 ms and 4294967295 ms (about 49.7 days); longer waits need a scheduler.',
          ),
        );
    }
    for (const p of ctx.design.publishers) {
      const h = p.properties?.headers;
      if (!h || !('x-delay' in h)) continue;
      const v = bad(possibleNumbers(h['x-delay']));
      if (v !== undefined)
        out.push(
          finding(
            'delay-out-of-range',
            'warning',
            `${p.id} publishes with x-delay ${v}, which the plugin does not delay.`,
            [publisherNodeId(p.id)],
            'Use 1..4294967295 ms.',
          ),
        );
    }
    return out;
  },
};
