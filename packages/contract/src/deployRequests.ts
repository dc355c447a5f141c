/** Requests of /api/plan, /api/deploy and /api/teardown. The design itself is checked by the core's `parseDesign`. */
import { z } from 'zod';
import { targetFields } from './fields.js';

export const planRequest = z.object({ design: z.unknown(), ...targetFields }).strict();
export const deployRequest = planRequest;

export const teardownRequest = z
  .object({
    ...targetFields,
    /** the design name the deployment was made for (a guard against tearing down another design) */
    designName: z.string().min(1).max(300),
    /** delete queues that hold messages or have consumers */
    force: z.boolean().optional(),
  })
  .strict();
