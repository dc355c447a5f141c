import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { formatMs } from '../../text/formatDuration.js';
import { parkingQueues } from './parkedDeadLettersExpire.js';
import { assumedConsumers } from '../assumedConsumers.js';

/**
 * `ttl-queue-without-exit`: a queue whose messages expire (x-message-ttl, from its arguments or
 * a policy) with neither a dead-letter exchange nor a consumer: every message it receives is
 * silently dropped when its TTL ends. Usually a retry wait queue that lost its DLX. In a definitions
 * file (no consumers) it is said as info: a consumer the file does not show may take them in time.
 */
export const ttlQueueWithoutExit = defineRule({
  id: 'ttl-queue-without-exit',
  title: 'A TTL queue with neither a dead-letter exchange nor a consumer',
  description:
    'A queue with a TTL and neither a dead-letter exchange nor a consumer: messages expire and are dropped. In a definitions file (no consumers shown) it is info: what no consumer takes in time is dropped without a trace.',
  level: 'warning',
  help: 'Give the queue a dead-letter exchange (a wait queue) or a consumer, or remove the TTL.',
  check: (ctx, flow, say) => {
    // a definitions file has no consumers: the one assumption says which queues have a worker
    const roles = ctx.consumersKnown ? undefined : assumedConsumers(ctx.design.topology).roles;
    // a parking queue's TTL is parked-dead-letters-expire's
    const parking = parkingQueues(ctx, flow);
    return ctx.design.topology.queues.flatMap((q) => {
      const a = flow.args.get(q.name) ?? {};
      if (typeof a['x-message-ttl'] !== 'number' || parking.has(q.name)) return [];
      if (
        typeof a['x-dead-letter-exchange'] === 'string' ||
        flow.consumersByQueue.has(q.name) ||
        roles?.[q.name] === 'work'
      )
        return [];
      // as simulate says it ("24 h"), with the argument's own value beside it
      const ttl = a['x-message-ttl'];
      const after = ttl >= 1000 ? `${formatMs(ttl)} (x-message-ttl ${ttl})` : `${ttl} ms`;
      return [
        say(
          roles ? 'info' : 'warning',
          roles
            ? `${q.name} expires messages after ${after} and has no dead-letter exchange: whatever no consumer takes within that time is dropped without a trace (the file does not say who consumes it).`
            : `${q.name} expires messages after ${after} but has no dead-letter exchange and no consumer: every message it receives is dropped when its TTL ends.`,
          [queueNodeId(q.name)],
          `Give ${q.name} a dead-letter exchange (x-dead-letter-exchange, or a policy's dead-letter-exchange) so expired messages go on, or a consumer.`,
        ),
      ];
    });
  },
});
