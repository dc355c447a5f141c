import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { assumedConsumers } from '../assumedConsumers.js';
import type { LintFinding } from '../types.js';

export const automaticCycleDropped = defineRule({
  id: 'automatic-cycle-dropped',
  title: 'Dead-letter cycle without a rejection',
  description:
    'A dead-letter cycle with no rejection in it: RabbitMQ drops a message that is dead-lettered to a queue it already died in without a rejection in between.',
  level: 'error',
  help: 'Make the cycle pass through a consumer that rejects, or end it in a parking queue.',
  check: (ctx, flow, say) => {
    // a definitions file: a queue the one assumption gives a worker (a TTL that is a job timeout) is consumed
    const worked = ctx.consumersKnown ? undefined : assumedConsumers(ctx.design.topology).roles;
    // queues that dead-letter by themselves (TTL / max-length) and nobody consumes
    const auto = ctx.design.topology.queues
      .map((q) => q.name)
      .filter((n) => {
        const a = flow.args.get(n)!;
        return (
          (a['x-message-ttl'] !== undefined ||
            a['x-max-length'] !== undefined ||
            a['x-max-length-bytes'] !== undefined) &&
          !flow.consumersByQueue.has(n) &&
          worked?.[n] !== 'work'
        );
      });
    const autoSet = new Set(auto);
    const out: LintFinding[] = [];
    const reported = new Set<string>();
    for (const start of auto) {
      // DFS for a path back to start through automatic queues only
      const stack: { q: string; path: string[] }[] = [{ q: start, path: [start] }];
      const seen = new Set<string>();
      let cycle: string[] | undefined;
      while (stack.length > 0 && !cycle) {
        const { q, path } = stack.pop()!;
        for (const t of flow.deadLetterTargets(q) ?? []) {
          if (t === start) {
            cycle = path;
            break;
          }
          if (autoSet.has(t) && !seen.has(t)) {
            seen.add(t);
            stack.push({ q: t, path: [...path, t] });
          }
        }
      }
      if (!cycle) continue;
      const key = [...cycle].sort().join('|');
      if (reported.has(key)) continue;
      reported.add(key);
      out.push(
        say(
          ctx.consumersKnown ? 'error' : 'warning',
          `${cycle.join(' -> ')} -> ${start} dead-letters in a loop with no rejection in it (TTL or max-length only). RabbitMQ detects the cycle and drops the message when it would re-enter a queue it already died in.`,
          cycle.map(queueNodeId),
          'Break the loop: let a consumer reject somewhere in it, or route the last hop to a different queue (e.g. the work queue, which rejects).',
        ),
      );
    }
    return out;
  },
});
