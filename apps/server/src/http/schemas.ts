/**
 * Strict request schemas (unknown keys are refused). The design itself is checked by
 * topology-core's `parseDesign`, which reports field-level paths.
 */
import { z } from 'zod';

const MAX_NAME_BYTES = 255;
const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

export const brokerUrlField = z.string().min(1).max(2048);

/** A name prefix: what every exchange and queue of the design is deployed under. */
export const prefixField = z
  .string()
  .max(100)
  .refine((s) => !/[\r\n]/.test(s), 'prefix must not contain a line break')
  .refine((s) => !s.startsWith('amq.'), 'prefix must not start with "amq." (reserved by the broker)');

export const vhostField = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => byteLength(s) <= MAX_NAME_BYTES, 'vhost name is longer than 255 bytes')
  .refine((s) => !/[\r\n]/.test(s), 'vhost must not contain a line break');

/** the broker's management API, e.g. http://127.0.0.1:15673 (default: discovered, and always checked to be the same broker) */
export const managementUrlField = z.string().min(1).max(2048);

const target = {
  broker: brokerUrlField.optional(),
  managementUrl: managementUrlField.optional(),
  prefix: prefixField.optional(),
  vhost: vhostField.optional(),
};

export const planRequest = z.object({ design: z.unknown(), ...target }).strict();
export const deployRequest = planRequest;

export const teardownRequest = z
  .object({
    ...target,
    /** the design name the deployment was made for (a guard against tearing down another design) */
    designName: z.string().min(1).max(300),
    /** delete queues that hold messages or have consumers */
    force: z.boolean().optional(),
  })
  .strict();

const headerValue = z.union([z.string().max(4096), z.number().finite(), z.boolean()]);

export const traceRequest = z
  .object({
    design: z.unknown(),
    ...target,
    /** which publisher node to publish from; default: the design's first publisher */
    publisher: z.string().min(1).max(300).optional(),
    /** how many test messages, default 1 */
    messages: z.number().int().min(1).max(100_000).optional(),
    /** publish rate cap, messages per second (default unlimited, confirms and drain pace it) */
    ratePerSecond: z.number().int().min(1).max(100_000).optional(),
    /** extra headers for the test messages */
    headers: z.record(z.string().min(1).max(255), headerValue).optional(),
    /** per-message TTL, a decimal string of ms, as on the wire */
    expiration: z.string().regex(/^\d{1,10}$/, 'expiration must be a decimal string of milliseconds').refine((s) => Number(s) <= 4294967295, 'expiration must be at most 4294967295 ms').optional(),
    priority: z.number().int().min(0).max(255).optional(),
    /** persistent test messages (delivery mode 2), default true */
    persistent: z.boolean().optional(),
    /** stop the workers after this long, ms (default 60 s) */
    durationMs: z.number().int().min(100).max(30 * 60_000).optional(),
    /** the failure model for workers whose behaviour has none (the core's FailureModel; checked by validateFailureModel) */
    failure: z.unknown().optional(),
    /** seed of the failure model's draws, as in the simulator (default 1) */
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    /** include the simulator's prediction and the first difference */
    predict: z.boolean().optional(),
    /** a cluster node loss the prediction includes (the core's NodeLoss, design queue names; checked by parseNodeLoss) */
    nodeLoss: z.unknown().optional(),
    /** workers' in-memory cap on messages awaiting processing (backpressure) */
  })
  .strict();

export type PlanRequest = z.infer<typeof planRequest>;
export type TeardownRequest = z.infer<typeof teardownRequest>;
export type TraceRequest = z.infer<typeof traceRequest>;

/** Parse or throw a 400 naming the first offending field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  let message = issue.message;
  let where = field;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    message = `unknown field(s): ${keys.join(', ')}`;
    where = field ? `${field}.${keys[0]}` : keys[0]!;
  }
  throw new BadRequest(message, where || undefined);
}

import { HttpError } from './httpError.js';
class BadRequest extends HttpError {
  constructor(message: string, field?: string) {
    super(400, message, field);
  }
}
