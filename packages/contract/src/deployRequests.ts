/** Requests of /api/plan, /api/deploy and /api/teardown. The design itself is checked by the core's `parseDesign`. */
import { z } from 'zod';
import { brokerUrlField, managementUrlField, targetFields } from './fields.js';

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

/** POST /api/broker: probe a broker. A POST, never a GET with the URL in the query: a password stays out of logs and history, and a cross-site page cannot make the server log in. */
export const probeRequest = z
  .object({
    broker: brokerUrlField.optional(),
    managementUrl: managementUrlField.optional(),
  })
  .strict();
