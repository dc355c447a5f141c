/** The request of POST /api/trace. `failure` and `nodeLoss` are checked by the core (validateFailureModel, parseNodeLoss). */
import { z } from 'zod';
import { targetFields } from './fields.js';

const headerValue = z.union([z.string().max(4096), z.number().finite(), z.boolean()]);

export const traceRequest = z
  .object({
    design: z.unknown(),
    ...targetFields,
    /** which publisher node to publish from; default: the design's first publisher */
    publisher: z.string().min(1).max(300).optional(),
    /** how many test messages, default 1 */
    messages: z.number().int().min(1).max(100_000).optional(),
    /** publish rate cap, messages per second (default unlimited, confirms and drain pace it) */
    ratePerSecond: z.number().int().min(1).max(100_000).optional(),
    /** extra headers for the test messages */
    headers: z.record(z.string().min(1).max(255), headerValue).optional(),
    /** per-message TTL, a decimal string of ms, as on the wire */
    expiration: z
      .string()
      .regex(/^\d{1,10}$/, 'expiration must be a decimal string of milliseconds')
      .refine((s) => Number(s) <= 4294967295, 'expiration must be at most 4294967295 ms')
      .optional(),
    priority: z.number().int().min(0).max(255).optional(),
    /** persistent test messages (delivery mode 2), default true */
    persistent: z.boolean().optional(),
    /** stop the workers after this long, ms (default 60 s) */
    durationMs: z
      .number()
      .int()
      .min(100)
      .max(30 * 60_000)
      .optional(),
    /** the failure model for workers whose behaviour has none (the core's FailureModel) */
    failure: z.unknown().optional(),
    /** seed of the failure model's draws, as in the simulator (default 1) */
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
    /** include the simulator's prediction and the first difference */
    predict: z.boolean().optional(),
    /** a cluster node loss the prediction includes (the core's NodeLoss, design queue names) */
    nodeLoss: z.unknown().optional(),
  })
  .strict();
