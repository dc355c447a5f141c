/**
 * `policy-never-applies`: a policy whose pattern matches queues or exchanges of the file, yet
 * applies to none of them: on every one a policy of higher priority wins (RabbitMQ applies one
 * policy per object, the highest priority: rabbit_policy.erl). Its settings do nothing; a reader
 * of the file (and the broker's own list of policies) suggests otherwise. The finding names what
 * outranks it. A policy that matches nothing in the file is for objects the applications declare:
 * not named.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId, type NodeId } from '../../model/nodeIds.js';
import { policyMatches, policyTargetOf } from '../../model/policyMatch.js';
import { objectList } from '../findingGroups.js';
import type { LintFinding } from '../types.js';

export const policyNeverApplies = defineRule({
  id: 'policy-never-applies',
  title: 'A policy outranked on every object it matches',
  description:
    'A policy matches queues or exchanges of the file but applies to none of them: on each, a policy of higher priority wins (RabbitMQ applies one policy per object), so its settings do nothing.',
  level: 'warning',
  help: "Raise its priority, fold its settings into the policy that wins, narrow the winning policy's pattern, or delete it.",
  check: (ctx, flow, say) => {
    const t = ctx.design.topology;
    const out: LintFinding[] = [];
    for (const p of t.policies ?? []) {
      const governed = flow.governedBy(p.name);
      if (governed.queues.length > 0 || governed.exchanges.length > 0) continue;
      const queues = t.queues
        .filter((q) => policyMatches(p, q.name, policyTargetOf(flow.args.get(q.name)?.['x-queue-type'])))
        .map((q) => q.name);
      const exchanges = t.exchanges.filter((x) => policyMatches(p, x.name, 'exchange')).map((x) => x.name);
      if (queues.length === 0 && exchanges.length === 0) continue;
      // what wins on each object it matches, by policy (priority)
      const winners = new Map<string, number>();
      for (const q of queues) {
        const w = flow.settings(q)?.policy;
        if (w) winners.set(w, (winners.get(w) ?? 0) + 1);
      }
      for (const x of exchanges) {
        const w = flow.exchangeSettings(x)?.policy;
        if (w) winners.set(w, (winners.get(w) ?? 0) + 1);
      }
      const priority = (name: string) => t.policies?.find((o) => o.name === name)?.priority ?? 0;
      const by = [...winners]
        .map(
          ([w, n]) => `${w} (priority ${priority(w)}, on ${n === queues.length + exchanges.length ? 'every one' : n})`,
        )
        .join(', ');
      const objects: NodeId[] = [...queues.map(queueNodeId), ...exchanges.map(exchangeNodeId)];
      out.push(
        say(
          'warning',
          `policy ${p.name} (priority ${p.priority ?? 0}) matches ${objectList([...queues, ...exchanges])} but applies to none of them: ${by || 'a policy of higher priority'} outranks it, so its ${Object.keys(p.definition).join(', ')} ${Object.keys(p.definition).length === 1 ? 'does' : 'do'} nothing.`,
          objects,
          `Raise the priority of ${p.name} above ${[...winners.keys()].join(', ') || 'the winning policy'}, move its settings into the policy that wins, or delete it.`,
        ),
      );
    }
    return out;
  },
});
