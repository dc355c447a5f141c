/**
 * RabbitMQ 3.10 silently drops an (at-most-once) dead letter routed to a stream: osiris had no
 * uncorrelated writes until rabbitmq-server#7846 (3.11.x/3.12.x). Measured on 3.10.8: the
 * stream-dead-letter-* scenarios keep nothing there; 4.3.6 keeps every one. A client publish
 * (a worker republishing to park it) reaches a stream on every version.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { declared } from '../ruleHelpers.js';
import type { LintFinding } from '../types.js';

export const deadLetterIntoStream = defineRule({
  id: 'dead-letter-into-stream',
  title: 'Dead letters routed to a stream (dropped by RabbitMQ 3.10)',
  description: 'Dead letters are routed to a stream: RabbitMQ 3.10 drops them silently (4.3 keeps them).',
  level: 'error',
  help: 'Park dead letters in a quorum or classic queue on 3.x, or republish them to the stream from a consumer.',
  check: (ctx, flow, say) => {
    if (ctx.semantics.streamTakesDeadLetters) return [];
    const out: LintFinding[] = [];
    for (const q of ctx.design.topology.queues) {
      const a = flow.args.get(q.name)!;
      const dlx = a['x-dead-letter-exchange'];
      if (typeof dlx !== 'string' || !declared(flow, dlx)) continue;
      const dlrk = a['x-dead-letter-routing-key'];
      const keys = typeof dlrk === 'string' ? [dlrk] : flow.arrivalKeys(q.name);
      if (keys === undefined) continue;
      const streams = [...flow.possibleQueues(dlx, keys)].filter(
        (t) => flow.args.get(t)?.['x-queue-type'] === 'stream',
      );
      if (streams.length === 0) continue;
      out.push(
        say(
          'error',
          `Dead letters from ${q.name} are routed to the stream ${streams.join(', ')}: RabbitMQ 3.10 drops them silently (a stream takes dead letters from 3.11.x/3.12.x on).`,
          [queueNodeId(q.name), exchangeNodeId(dlx), ...streams.map((s) => queueNodeId(s))],
          `On 3.10, park in a queue (classic or quorum), or have a worker republish the message to the stream (a client publish reaches it); or target RabbitMQ 3.12+ / 4.x.`,
        ),
      );
    }
    return out;
  },
});
