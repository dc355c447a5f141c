import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { isQuorum } from '../ruleHelpers.js';
import type { LintContext } from '../types.js';
import type { Flow } from '../flow.js';

type Role = 'dead-letter' | 'parking' | 'wait';

/**
 * What a queue is for on the retry path: a wait queue holds messages for a TTL and dead-letters
 * them on (TTL + DLX); a dead-letter queue receives a queue's dead letters; a parking queue is
 * where a consumer's republish ends (nobody consumes it). A consumed queue is a work queue.
 * Without known consumers (a definitions file) only wait queues and dead-letter targets without
 * a DLX of their own count.
 */
function roleOf(ctx: LintContext, flow: Flow, q: string, deadLetterTargets: ReadonlySet<string>): Role | undefined {
  if (ctx.consumersKnown && (flow.consumersByQueue.get(q)?.length ?? 0) > 0) return undefined;
  const args = flow.args.get(q) ?? {};
  const dlx = typeof args['x-dead-letter-exchange'] === 'string';
  if (dlx && typeof args['x-message-ttl'] === 'number') return 'wait';
  if (deadLetterTargets.has(q)) return ctx.consumersKnown || !dlx ? 'dead-letter' : undefined;
  return ctx.consumersKnown ? 'parking' : undefined;
}

/** Only in a cluster (ctx.nodes > 1, from the probe): a classic queue lives on one node. */
export const classicQueueInCluster = defineRule({
  id: 'classic-queue-in-cluster',
  title: 'Classic dead-letter, parking or wait queue in a cluster',
  description:
    'A classic dead-letter, parking or wait queue in a cluster: it lives on one node, and its messages are unavailable (or lost) while that node is down.',
  level: 'warning',
  help: 'Use a quorum queue for dead-letter, parking and wait queues in a cluster.',
  check: (ctx, flow, say) => {
    if ((ctx.nodes ?? 1) < 2) return [];
    const targets = new Set(ctx.design.topology.queues.flatMap((q) => [...(flow.deadLetterTargets(q.name) ?? [])]));
    return ctx.design.topology.queues.flatMap((q) => {
      if (isQuorum(flow, q.name) || flow.args.get(q.name)?.['x-queue-type'] === 'stream') return [];
      const role = roleOf(ctx, flow, q.name, targets);
      if (!role) return [];
      const loss =
        role === 'wait'
          ? 'while that node is down the waiting messages are stuck (their retry waits longer than planned) or, if it is lost, gone'
          : `while that node is down dead letters routed to it are dropped and those it holds are unreachable; if it is lost, they are gone`;
      return [
        say(
          'warning',
          `${q.name} is a classic ${role} queue on a ${ctx.nodes}-node cluster: a classic queue lives on one node, so ${loss}.`,
          [queueNodeId(q.name)],
          role === 'wait'
            ? 'Declare it with x-queue-type quorum: TTL and dead-lettering work the same, and it survives the loss of a minority of nodes.'
            : 'Declare it with x-queue-type quorum (replicated, keeps dead-lettering), or a stream if the parked messages are only read and replayed by tools.',
        ),
      ];
    });
  },
});
