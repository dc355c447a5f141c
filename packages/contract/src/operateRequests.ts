/** Requests of /api/operate/*. POST everywhere: the broker URL carries a password, so it travels in a body. */
import { z } from 'zod';
import { operateTargetFields, queueField } from './fields.js';
import { MAX_BROWSE } from './limits.js';

export const importRequest = z.object({ ...operateTargetFields, name: z.string().min(1).max(300).optional() }).strict();
export const depthsRequest = z.object(operateTargetFields).strict();
export const browseRequest = z
  .object({ ...operateTargetFields, queue: queueField, limit: z.number().int().min(1).max(MAX_BROWSE).optional(), insist: z.boolean().optional() })
  .strict();
export const redriveRequest = z
  .object({
    ...operateTargetFields,
    queue: queueField,
    /** `original` (default), `EXCHANGE`, `EXCHANGE:ROUTING_KEY` or `:QUEUE` */
    to: z.string().max(600).optional(),
    /** `cause=KEY`, `queue=Q`, `reason=R`, `header=NAME[=VALUE]` */
    filter: z.string().min(1).max(1000).optional(),
    limit: z.number().int().min(1).max(10_000_000).optional(),
    /** messages per second */
    rate: z.number().positive().max(1_000_000).optional(),
    dryRun: z.boolean().optional(),
    insist: z.boolean().optional(),
  })
  .strict();
