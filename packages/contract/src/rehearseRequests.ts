/**
 * The request of POST /api/rehearse: a design and a load (the core's RehearsalLoad, same names).
 * The shapes and ranges here; what depends on the design (targets, outages within the duration)
 * the core checks (checkLoad), naming the field.
 */
import { z } from 'zod';
import { BROKER_PROFILE_IDS } from '@retry-studio/topology-core/model';

const DAY_MS = 24 * 3600_000;
const ms = (max: number) => z.number().finite().min(0).max(max);
const share = z.number().finite().min(0).max(1);

const windows = z.array(z.object({ startMs: ms(7 * DAY_MS), endMs: ms(7 * DAY_MS) }).strict()).max(100);

const targetLoad = z
  .object({
    /** a consumer id, or a queue name (every consumer of it) */
    target: z.string().min(1).max(300),
    processingMs: ms(DAY_MS).optional(),
    concurrency: z.number().int().min(1).max(100_000).optional(),
    /** when every attempt by the target's consumers fails (a consumer outage) */
    consumerOutages: windows.optional(),
    /** the same, by its name before retry-load/1 (read as consumerOutages) */
    outages: windows.optional(),
    errorRate: share.optional(),
    poison: share.optional(),
  })
  .strict();

export const rehearsalLoad = z
  .object({
    /** messages per second */
    rate: z.number().finite().max(1_000_000).optional(),
    phases: z
      .array(z.object({ at: ms(7 * DAY_MS), rate: z.number().finite().min(0).max(1_000_000) }).strict())
      .max(1000)
      .optional(),
    durationMs: z
      .number()
      .finite()
      .max(7 * DAY_MS),
    bodyBytes: z
      .number()
      .int()
      .min(0)
      .max(512 * 1024 * 1024)
      .optional(),
    processingMs: ms(DAY_MS).optional(),
    concurrency: z.number().int().min(1).max(100_000).optional(),
    errorRate: share.optional(),
    poison: share.optional(),
    targets: z.array(targetLoad).max(200).optional(),
    profile: z.enum(BROKER_PROFILE_IDS).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
    afterMs: ms(7 * DAY_MS).optional(),
    /** the broker node's RAM and free disk, bytes */
    brokerMemoryBytes: z
      .number()
      .finite()
      .positive()
      .max(2 ** 50)
      .optional(),
    diskFreeBytes: z
      .number()
      .finite()
      .min(0)
      .max(2 ** 55)
      .optional(),
  })
  .strict();

export const rehearseRequest = z
  .object({
    design: z.unknown(),
    load: rehearsalLoad,
    /** the depth series' step, ms (default about 3,000 samples over the duration) */
    sampleMs: z.number().int().min(10).max(DAY_MS).optional(),
    /** a retry-calibration/1 document (the core reads it and names what is wrong); default the shipped one */
    calibration: z.unknown().optional(),
  })
  .strict();
