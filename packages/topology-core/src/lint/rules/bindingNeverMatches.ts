import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { bindingMatches, exchangeKeys } from '../exchangeKeys.js';
import type { LintFinding } from '../types.js';

/**
 * `binding-never-matches`: a direct or topic binding whose key no message of this design can
 * carry (after publishers, republishes, dead-lettering and exchange-to-exchange hops): the
 * queue behind it never receives anything through it, usually a key that went stale after a
 * rename or a typo. Only designs with publishers are checked (a definitions file has none).
 * A wildcard key is an `info` (schemes like binary delay levels bind every level whether the
 * current parameters use it or not); an exact key that nothing sends is a `warning`.
 */
export const bindingNeverMatches = defineRule({
  id: 'binding-never-matches',
  title: 'A binding no message can match',
  description:
    'A binding no message in the design can match (no publisher or dead-letter route sends that key or those headers).',
  level: 'warning',
  help: 'Correct the binding key or the publisher, or remove the binding.',
  check: (ctx, flow, say) => {
    const d = ctx.design;
    if (!ctx.consumersKnown || d.publishers.length === 0) return [];
    const keys = exchangeKeys(d, flow);
    const out: LintFinding[] = [];
    for (const b of d.topology.bindings) {
      const type = flow.exchangeType(b.source);
      if (type !== 'direct' && type !== 'topic') continue;
      if (!keys.has(b.source)) continue; // nothing reaches the exchange at all: another story
      const arriving = keys.get(b.source);
      if (arriving === undefined || [...arriving].some((k) => bindingMatches(type, b.routing_key, k))) continue;
      const dest = b.destination_type === 'queue' ? queueNodeId(b.destination) : exchangeNodeId(b.destination);
      const list = [...arriving].slice(0, 5).map((k) => JSON.stringify(k));
      out.push(
        say(
          /[*#]/.test(b.routing_key) ? 'info' : 'warning',
          `The binding ${b.source} -> ${b.destination} with key ${JSON.stringify(b.routing_key)} never matches: messages reach ${b.source} only with the key(s) ${list.join(', ')}${arriving.size > 5 ? ', ...' : ''}.`,
          [exchangeNodeId(b.source), dest],
          `Change the binding key to one the publishers, republishes or dead-letter routing keys use, or remove the binding.`,
        ),
      );
    }
    return out;
  },
});
