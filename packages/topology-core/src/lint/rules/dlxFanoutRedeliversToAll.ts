/**
 * `dlx-fanout-redelivers-to-all`: a queue's dead letters are copied to several queues. Through a
 * fanout that is every bound queue; through a direct or topic exchange it is every queue bound for
 * the dead letter's key (its dead-letter routing key, else the key it arrived with): a wait queue
 * that dead-letters back into the shared exchange its message came from delivers every retry again
 * to all the other subscribers of that key, not only to the one that failed. Through a direct or
 * topic exchange only consumed queues count (a work queue, or in a definitions file a queue the one
 * assumption gives a worker or leaves idle), so a DLQ beside a retry queue is not a copy to warn of.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { assumedConsumers } from '../assumedConsumers.js';
import type { LintFinding } from '../types.js';

export const dlxFanoutRedeliversToAll = defineRule({
  id: 'dlx-fanout-redelivers-to-all',
  title: 'Dead-lettering that copies each retry to several queues',
  description:
    'Dead letters are copied to several queues: through a fanout exchange to every bound queue, through a direct or topic exchange to every consumed queue bound for their key (a wait queue dead-lettering back into a shared exchange): every retry is delivered again to all of them, not only to the one that failed.',
  level: 'warning',
  help: 'Use a dead-letter routing key per queue (e.g. its own name through a direct exchange), or a dead-letter exchange of its own.',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    let roles: Readonly<Record<string, string>> | undefined;
    const consumed = (q: string): boolean => {
      if (ctx.consumersKnown) return flow.consumersByQueue.has(q);
      roles ??= assumedConsumers(ctx.design.topology).roles;
      return roles[q] === 'work' || roles[q] === 'idle';
    };
    for (const q of ctx.design.topology.queues) {
      const a = flow.args.get(q.name)!;
      const dlx = a['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || dlx === '') continue;
      const type = flow.exchangeType(dlx);
      if (type === 'fanout') {
        const targets = flow.possibleQueues(dlx, undefined);
        if (targets.size < 2) continue;
        out.push(
          say(
            'warning',
            `${q.name} dead-letters into the fanout ${dlx}, which copies each dead letter to ${targets.size} queues (${[...targets].join(', ')}): a retry of one subscriber's failure reaches every subscriber again.`,
            [queueNodeId(q.name), exchangeNodeId(dlx), ...[...targets].map(queueNodeId)],
            'Dead-letter into a direct or topic exchange with x-dead-letter-routing-key set to the queue name, so the message goes back to the queue that failed it only.',
          ),
        );
        continue;
      }
      if (type !== 'direct' && type !== 'topic') continue;
      const dlrk = a['x-dead-letter-routing-key'];
      const keys = typeof dlrk === 'string' ? [dlrk] : flow.arrivalKeys(q.name);
      if (keys === undefined) continue; // any key: which subscribers share it is unknown
      const targets = [...(flow.deadLetterTargets(q.name) ?? [])].filter((t) => t !== q.name && consumed(t));
      if (targets.length < 2) continue;
      const keyText =
        keys
          .slice(0, 3)
          .map((k) => JSON.stringify(k))
          .join(', ') + (keys.length > 3 ? ', ...' : '');
      out.push(
        say(
          'warning',
          `${q.name} dead-letters into the ${type} exchange ${dlx} with key ${keyText}${typeof dlrk === 'string' ? ' (its dead-letter routing key)' : ' (the key its messages arrived with)'}, which ${dlx} routes to ${targets.length} consumed queues (${targets.join(', ')}): every retry is delivered again to all of them, not only to the one that failed.`,
          [queueNodeId(q.name), exchangeNodeId(dlx), ...targets.map(queueNodeId)],
          `Give ${q.name} an x-dead-letter-routing-key that only the failing queue is bound for (e.g. its own name through a direct exchange), or dead-letter into an exchange of its own.`,
        ),
      );
    }
    return out;
  },
});
