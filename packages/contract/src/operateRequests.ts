/** Requests of /api/operate/*. POST everywhere: the broker URL carries a password, so it travels in a body. */
import { z } from 'zod';
import { operateTargetFields, queueField } from './fields.js';
import { MAX_BROWSE, MIN_RATE_PER_SECOND, MIN_RATE_TEXT } from './limits.js';

export const importRequest = z.object({ ...operateTargetFields, name: z.string().min(1).max(300).optional() }).strict();
export const depthsRequest = z.object(operateTargetFields).strict();
export const browseRequest = z
  .object({
    ...operateTargetFields,
    queue: queueField,
    limit: z.number().int().min(1).max(MAX_BROWSE).optional(),
    insist: z.boolean().optional(),
  })
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
    rate: z.number().min(MIN_RATE_PER_SECOND, `rate must be at least ${MIN_RATE_TEXT}`).max(1_000_000).optional(),
    dryRun: z.boolean().optional(),
    insist: z.boolean().optional(),
    /** canary re-drive: the first batch's size (checked by the core's checkCanaryOptions, errors naming the field) */
    canary: z.number().optional(),
    canaryWaitMs: z.number().optional(),
    /** resume an interrupted canary at this batch (1-based) */
    canaryFromBatch: z.number().optional(),
    /** a count (2), a ratio below 1 (0.1) or a percentage ('10%') */
    maxRefail: z.union([z.number(), z.string().max(20)]).optional(),
    /** fix, then retry: headers set on each copy */
    setHeaders: z.record(z.string().max(255), z.string().max(65_536)).optional(),
    /** fix, then retry: an RFC 6902 JSON patch applied to each JSON body */
    patch: z.array(z.unknown()).max(1000).optional(),
  })
  .strict();
