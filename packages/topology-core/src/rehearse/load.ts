/**
 * A rehearsal's load and failure description: how fast messages arrive, for how long, how big
 * they are, and how each consumer fails (outage windows, an error rate, a poison share), how
 * long it works on a message and how many it works on at once. The CLI's flags, a `--scenario`
 * file, the HTTP body and the browser's form all produce this one shape.
 */
import type { BrokerProfileId } from '../model/design.js';

/** From `at` ms on (until the next phase, or the end), `rate` messages per second. */
export interface RatePhase {
  readonly at: number;
  readonly rate: number;
}

/** Every attempt by the target's consumers fails from `startMs` (inclusive) to `endMs` (exclusive). */
export interface OutageWindow {
  readonly startMs: number;
  readonly endMs: number;
}

/** What one consumer (a consumer id) or every consumer of a queue (a queue name) does under load. */
export interface TargetLoad {
  readonly target: string;
  readonly processingMs?: number;
  /** consumers x prefetch: deliveries worked on at once (default unbounded) */
  readonly concurrency?: number;
  readonly consumerOutages?: readonly OutageWindow[];
  /** share of attempts outside outages that fail, 0..1 (seeded) */
  readonly errorRate?: number;
  /** share of messages that always fail here, 0..1 */
  readonly poison?: number;
}

export interface RehearsalLoad {
  /** constant arrival rate, messages per second (or `phases`) */
  readonly rate?: number;
  readonly phases?: readonly RatePhase[];
  /** how long messages arrive, ms */
  readonly durationMs: number;
  /** body size in bytes, for the memory estimate (default 1024) */
  readonly bodyBytes?: number;
  /** defaults for every worker consumer; a target's own values win */
  readonly processingMs?: number;
  readonly concurrency?: number;
  readonly errorRate?: number;
  readonly poison?: number;
  readonly targets?: readonly TargetLoad[];
  /** the broker's rules; default the design's profile */
  readonly profile?: BrokerProfileId;
  /** the seed of the error-rate and poison draws (default 1) */
  readonly seed?: number;
  /** how long after the last arrival the rehearsal follows what is left (default 15 minutes) */
  readonly afterMs?: number;
  /** the broker node's RAM, bytes: its memory high watermark is the version's default share of it (default 4 GiB) */
  readonly brokerMemoryBytes?: number;
  /** the node's free disk when the load begins, bytes (default 10 GiB) */
  readonly diskFreeBytes?: number;
}

export const DEFAULT_BODY_BYTES = 1024;
export const DEFAULT_AFTER_MS = 15 * 60_000;
export const DEFAULT_BROKER_MEMORY_BYTES = 4 * 1024 ** 3;
export const DEFAULT_DISK_FREE_BYTES = 10 * 1024 ** 3;

/** What one consumer does in a rehearsal, once defaults and targets are resolved. */
export interface ConsumerLoad {
  readonly consumer: string;
  readonly processingMs: number;
  /** Infinity when unbounded */
  readonly concurrency: number;
  readonly consumerOutages: readonly OutageWindow[];
  readonly errorRate: number;
  readonly poison: number;
}
