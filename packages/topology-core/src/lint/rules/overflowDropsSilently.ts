import { queueNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import type { LintRule } from '../types.js';

export const overflowDropsSilently: LintRule = {
  id: 'overflow-drops-silently',
  title: 'Length limit that drops messages',
  check: (ctx, flow) =>
    ctx.design.topology.queues.flatMap((q) => {
      const a = flow.args.get(q.name)!;
      if (a['x-max-length'] === undefined && a['x-max-length-bytes'] === undefined) return [];
      const mode = (a['x-overflow'] as string | undefined) ?? 'drop-head';
      const dlx = a['x-dead-letter-exchange'] !== undefined;
      if (mode === 'drop-head' && !dlx)
        return [
          finding(
            'overflow-drops-silently',
            'warning',
            `${q.name} has a length limit with overflow drop-head and no DLX: when it is full the oldest messages are discarded without trace.`,
            [queueNodeId(q.name)],
            'Add a DLX to keep them, or use x-overflow reject-publish with publisher confirms so publishers see nacks.',
          ),
        ];
      if (mode === 'reject-publish')
        return [
          finding(
            'overflow-drops-silently',
            'info',
            `${q.name} rejects publishes when full: publishers that do not use confirms lose those messages silently, and dead-letters into it are dropped.`,
            [queueNodeId(q.name)],
            'Use publisher confirms and handle nacks; size the limit for retry bursts.',
          ),
        ];
      return [];
    }),
};
