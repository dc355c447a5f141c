/**
 * `overflow-drops-silently`: a length limit that loses messages. Dead letters into a full queue, as
 * both brokers do it (measured in throwaway vhosts on 3.10.8 and 4.3.6, five messages rejected from
 * a work queue into a DLQ with x-max-length 2): a quorum DLQ with reject-publish took all five (only a
 * client publish was nacked: an at-most-once dead letter has no channel to refuse), a classic one
 * with reject-publish or reject-publish-dlx kept two, and drop-head kept the newest two on both types.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';

export const overflowDropsSilently = defineRule({
  id: 'overflow-drops-silently',
  title: 'Length limit that drops messages',
  description:
    'A length limit whose overflow drops messages (drop-head without a dead-letter exchange): messages vanish when the queue is full.',
  level: 'warning',
  help: 'Dead-letter the overflow, or use reject-publish with publisher confirms.',
  check: (ctx, flow, say) =>
    ctx.design.topology.queues.flatMap((q) => {
      const a = flow.args.get(q.name)!;
      if (a['x-max-length'] === undefined && a['x-max-length-bytes'] === undefined) return [];
      // a stream's x-max-length-bytes is retention: whole segments go from the head, nothing overflows or dead-letters
      if (flow.config(q.name)?.stream) return [];
      const mode = (a['x-overflow'] as string | undefined) ?? 'drop-head';
      const dlx = a['x-dead-letter-exchange'] !== undefined;
      if (mode === 'drop-head' && !dlx)
        return [
          say(
            'warning',
            `${q.name} has a length limit with overflow drop-head and no DLX: when it is full the oldest messages are discarded without trace.`,
            [queueNodeId(q.name)],
            'Add a DLX to keep them, or use x-overflow reject-publish with publisher confirms so publishers see nacks.',
          ),
        ];
      if (mode === 'reject-publish')
        return [
          say(
            'info',
            flow.config(q.name)?.quorum
              ? `${q.name} rejects publishes when full: publishers that do not use confirms lose those messages silently; dead letters into it are still taken, past the limit (a quorum queue: measured on 3.10.8 and 4.3.6, max-length 2 held 5 dead letters).`
              : `${q.name} rejects publishes when full: publishers that do not use confirms lose those messages silently, and dead letters into it are dropped (a classic queue: measured on 3.10.8 and 4.3.6, max-length 2 kept 2 of 5 dead letters).`,
            [queueNodeId(q.name)],
            'Use publisher confirms and handle nacks; size the limit for retry bursts.',
          ),
        ];
      return [];
    }),
});
