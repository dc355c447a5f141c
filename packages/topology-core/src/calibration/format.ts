/**
 * retry-calibration/1: what one broker measured holds per message (RAM, disk) and how fast one
 * queue goes (publish, deliver+ack, dead-letter, requeue per second). `pnpm calibrate` writes it
 * (apps/server/src/calibrate/); the ones measured here ship as data (shipped.ts); a user brings
 * their own with `--calibration FILE`. Every figure keeps its spread over the runs.
 */

export const CALIBRATION_FORMAT = 'retry-calibration/1';

/** one figure over `runs` runs: the median and the spread */
export interface Figure {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

/**
 * How a queue keeps its messages: `classic` is the version's own classic queue (v1 on 3.x, v2 from
 * 3.13 on), `classic-v2` a 3.x classic queue declared with x-queue-version 2, `classic-lazy` a
 * 3.x classic queue in lazy mode, `quorum` a quorum queue.
 */
export type QueueStorage = 'classic' | 'classic-v2' | 'classic-lazy' | 'quorum';

export const QUEUE_STORAGES: readonly QueueStorage[] = ['classic', 'classic-v2', 'classic-lazy', 'quorum'];

/** one queue kind with or without a TTL and one body size, filled with `messages` persistent messages */
export interface FootprintRow {
  readonly storage: QueueStorage;
  readonly ttl: boolean;
  readonly bodyBytes: number;
  readonly messages: number;
  /** the queue's own RAM per message (queue process, its bodies in RAM, the message-store index) */
  readonly ramBytesPerMessage: Figure;
  /** quorum only: RAM per message in the node's write-ahead log until it rolls over (bodies in memtables) */
  readonly walRamBytesPerMessage?: Figure;
  /** RAM a message leaves once it was consumed and acked: in a quorum queue's write-ahead log memtables (until the log rolls over), a 3.x classic queue's index journal (until it is flushed) */
  readonly consumedBytesPerMessage?: Figure;
  readonly diskBytesPerMessage: Figure;
}

/**
 * RAM per message held while messages flow (a consumer rejects each message of one queue into a
 * second queue that holds them, at `ratePerSecond`): the node's message memory at its peak, what
 * a broker under load really holds. Queue processes and binaries carry garbage until they are
 * collected, which a settled fill (`FootprintRow`) does not show; a rehearsal is always a flow.
 */
export interface FlowRow {
  readonly storage: QueueStorage;
  readonly bodyBytes: number;
  readonly ratePerSecond: number;
  readonly messages: number;
  readonly ramBytesPerMessage: Figure;
}

/** the most one queue of a kind did per second (1 KiB persistent messages, one channel) */
export interface CeilingRow {
  readonly storage: QueueStorage;
  readonly publishPerSec: Figure;
  readonly deliverAckPerSec: Figure;
  readonly deadLetterPerSec: Figure;
  readonly requeuePerSec: Figure;
}

/** a delayed-message exchange (plugin) holding messages, or why it was not measured */
export type DelayedExchangeFootprint =
  | {
      readonly measured: true;
      readonly rows: readonly {
        readonly bodyBytes: number;
        readonly messages: number;
        readonly ramBytesPerMessage: Figure;
        readonly diskBytesPerMessage: Figure;
      }[];
    }
  | { readonly measured: false; readonly reason: string };

export interface Calibration {
  readonly format: typeof CALIBRATION_FORMAT;
  readonly broker: {
    /** e.g. 3.10.8 */
    readonly version: string;
    readonly erlang?: string;
    readonly node?: string;
  };
  /** ISO date-time of the measurement */
  readonly measuredAt: string;
  readonly machine: {
    readonly cpus: number;
    readonly memoryBytes: number;
    readonly platform: string;
    /** e.g. that the machine was shared while it ran */
    readonly note?: string;
  };
  /** how the figures were read (management API categories, disk) */
  readonly method: string;
  readonly node: {
    /** the node's memory limit when measured (its high watermark, bytes) */
    readonly memoryLimitBytes?: number;
    /** node memory in use before anything was filled */
    readonly idleMemoryBytes?: number;
    readonly diskFreeLimitBytes?: number;
    /** the quorum write-ahead log's size before it rolls over (memtables hold up to this much) */
    readonly walMaxBytes?: number;
  };
  readonly footprint: readonly FootprintRow[];
  readonly ceilings: readonly CeilingRow[];
  /** RAM per held message under a steady flow, where measured (older files have none) */
  readonly flow?: readonly FlowRow[];
  readonly delayedExchange: DelayedExchangeFootprint;
  readonly notes?: readonly string[];
}
