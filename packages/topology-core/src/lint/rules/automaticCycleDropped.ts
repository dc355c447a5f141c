import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { assumedConsumers } from '../assumedConsumers.js';
import type { LintFinding } from '../types.js';
import type { Flow } from '../flow.js';
import { describeSource } from '../../model/effectiveSettings.js';

/**
 * How to end the loop without making it endless: a consumer that rejects inside it turns the drop
 * into a retry that never stops (a DLQ that dead-letters into itself, given a rejecting consumer,
 * cycles for ever: automaticCycleDropped.test.ts runs it), so the fix ends the loop instead.
 */
function fixFor(cycle: readonly string[], flow: Flow): string {
  const last = cycle[cycle.length - 1]!;
  const dlx = flow.settings(last)?.settings['x-dead-letter-exchange'];
  const from =
    dlx && dlx.source.kind !== 'argument'
      ? ` (it comes from ${describeSource(dlx.source)}: narrow its pattern, or give ${last} a policy of higher priority without one)`
      : '';
  if (cycle.length === 1)
    return `Give ${last} no dead-letter exchange${from}, so what expires there is dropped, or a dead-letter exchange that routes to a parking queue with no dead-letter route of its own. Do not add a consumer that rejects: the loop would then never end.`;
  return `End the loop: route the last hop (${last}) to a parking queue with no dead-letter route${from}, or through a work queue whose consumer counts x-death and parks after N rounds. A consumer that only rejects would keep the message going for ever.`;
}

export const automaticCycleDropped = defineRule({
  id: 'automatic-cycle-dropped',
  title: 'Dead-letter cycle without a rejection',
  description:
    'A dead-letter cycle with no rejection in it: RabbitMQ drops a message that is dead-lettered to a queue it already died in without a rejection in between.',
  level: 'error',
  help: 'End the loop in a parking queue (a last hop to a queue with no dead-letter route), or give a self-cycling queue no dead-letter exchange. A consumer that only rejects in the loop would make it endless.',
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
          fixFor(cycle, flow),
        ),
      );
    }
    return out;
  },
});
