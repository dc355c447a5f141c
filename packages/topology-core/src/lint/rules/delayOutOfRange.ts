import { defineRule } from '../defineRule.js';
import { MAX_TTL_MS } from '../../model/arguments.js';
import { consumerNodeId, publisherNodeId } from '../../model/nodeIds.js';
import { allActions, possibleNumbers } from '../ruleHelpers.js';
import type { LintFinding } from '../types.js';

export const delayOutOfRange = defineRule({
  id: 'delay-out-of-range',
  title: 'x-delay outside 1..2^32-1 ms',
  description: 'An x-delay outside 1..2^32-1 ms: the delayed-message exchange delivers it at once.',
  level: 'warning',
  help: 'Keep delays within 1 ms and 2^32-1 ms.',
  check: (ctx, _flow, say) => {
    const out: LintFinding[] = [];
    const bad = (vals: number[]): number | undefined => vals.find((v) => !(v > 0 && v <= MAX_TTL_MS));
    for (const { consumer, action } of allActions(ctx)) {
      if (action.kind !== 'republish' || !action.headers || !('x-delay' in action.headers)) continue;
      const v = bad(possibleNumbers(action.headers['x-delay']));
      if (v !== undefined)
        out.push(
          say(
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
          say(
            'warning',
            `${p.id} publishes with x-delay ${v}, which the plugin does not delay.`,
            [publisherNodeId(p.id)],
            'Use 1..4294967295 ms.',
          ),
        );
    }
    return out;
  },
});
