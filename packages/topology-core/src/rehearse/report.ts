/**
 * The retry bill of materials: what a load with failures does to a retry topology. The JSON
 * names are the (#31) and the same for the CLI's --json, POST /api/rehearse and the
 * browser; `broker` (--verify-on) has the same names, measured on a real broker.
 */
import type { BrokerProfileId } from '../model/design.js';
import type { CapacityShortfall, HotLoop } from './capacity.js';
import type { DelayPercentiles } from './delays.js';
import type { DepthSeries } from './queueDepths.js';
import type { RunsSummary } from './runs.js';

export interface RehearsalOutcomes {
  /** processed successfully (acked) */
  readonly acked: number;
  /** resting at the end in a queue off every retry path (a parking lot, a DLQ) */
  readonly parked: number;
  readonly parkedIn: Readonly<Record<string, number>>;
  /** the parking queues with a TTL: what rests there expires after this long (ms) */
  readonly parkedExpiresAfterMs?: Readonly<Record<string, number>>;
  /** discarded by the broker (no route, no DLX, overflow, a dead-letter cycle) */
  readonly dropped: number;
  /** expired where no dead-letter exchange took them */
  readonly expired: number;
  /** still on a retry path when the rehearsal ended */
  readonly inFlight: number;
}

export interface QueueRehearsal {
  readonly name: string;
  /** how the queue keeps its messages on this version: classic v1, classic v2, quorum, stream */
  readonly storage: string;
  /** ready + unacked at its peak, as the broker counts it */
  readonly peakDepth: number;
  readonly peakAtMs: number;
  /** held for later delivery, not counted by the broker (a 4.3 quorum queue's delayed retry) */
  readonly peakHeld: number;
  /** RAM the queue holds at its peak (depth + held) */
  readonly peakMemoryBytes: number;
  readonly peakDiskBytes: number;
  /** what it holds (depth + held) over time */
  readonly series: DepthSeries;
  /** the calibration's cost of one message here, and how it was read */
  readonly perMessage: { readonly ramBytes: number; readonly diskBytes: number; readonly basis: string };
}

/** an exchange that holds messages for later (the delayed-message exchange) */
export interface HeldRehearsal {
  readonly exchange: string;
  readonly peakHeld: number;
  readonly peakAtMs: number;
  readonly peakMemoryBytes: number;
  readonly peakDiskBytes: number;
}

/** a resource alarm the node would raise: every publisher on it is blocked until it clears */
export interface NodeAlarm {
  readonly kind: 'memory' | 'disk';
  readonly fromMs: number;
  /** null: still raised when the rehearsal ended */
  readonly untilMs: number | null;
  readonly peakBytes: number;
  /** the watermark (memory) or what may be written before the free-disk limit (disk) */
  readonly limitBytes: number;
  /** messages whose publish waited while it was raised, and the longest wait */
  readonly messagesWaited: number;
  readonly longestWaitMs: number;
}

export interface NodeRehearsal {
  /** the node's RAM at its peak: idle use + queues + held messages + the quorum WAL's memtables */
  readonly peakMemoryBytes: number;
  readonly peakMemoryAtMs: number;
  readonly peakDiskBytes: number;
  readonly peakDiskAtMs: number;
  readonly idleMemoryBytes: number;
  /** counted in peakMemoryBytes: up to the WAL's size once that much was written (0 without quorum queues) */
  readonly walMemoryBytes: number;
  /** counted in peakMemoryBytes: at the peak, heaps and binaries not yet collected under the flow (the calibration's flow rows; 0 without them) */
  readonly uncollectedMemoryBytes: number;
  readonly brokerMemoryBytes: number;
  /** the version's default memory high watermark (share of brokerMemoryBytes) */
  readonly watermark: number;
  readonly memoryLimitBytes: number;
  readonly diskFreeBytes: number;
  readonly diskFreeLimitBytes: number;
  readonly alarms: readonly NodeAlarm[];
  /** RAM and disk over time (the depth series' instants) */
  readonly series: { readonly t: number[]; readonly ramBytes: number[]; readonly diskBytes: number[] };
}

/** the calibration the bill was read from */
export interface CalibrationUsed {
  readonly brokerVersion: string;
  readonly measuredAt: string;
  readonly source: 'shipped' | 'given';
  readonly machine: string;
}

/** peaks of broker work per second */
export interface BrokerOpsPeaks {
  readonly publishesPerSec: number;
  readonly deadLettersPerSec: number;
  readonly deliveriesPerSec: number;
  /** the storm: retries arriving back at the failing consumer(s), per second */
  readonly retriesPerSec: number;
  readonly retriesPeakAtMs: number;
}

export interface RehearsalMode {
  /** per-message: every message simulated; cohorts: messages of one bucket with the same fate simulated once */
  readonly kind: 'per-message' | 'cohorts';
  /** simulated messages (or cohorts) */
  readonly simulated: number;
  /** cohorts only: the bucket (ms); buckets also break where a fate can change */
  readonly bucketMs?: number;
  /** what the cohorts may differ by from a per-message run (empty: nothing) */
  readonly bound?: string;
}

export interface RehearsalOutageSpan {
  readonly target: string;
  readonly consumers: readonly string[];
  readonly startMs: number;
  readonly endMs: number;
}

/** what the broker measured (--verify-on): the report's own names (one definition of each), with where it ran */
export type MeasuredRehearsal = Pick<
  RehearsalReport,
  'messages' | 'outcomes' | 'deliveries' | 'amplification' | 'delayMs' | 'drainMs' | 'wallMs'
> & {
  readonly queues: readonly MeasuredQueue[];
  /** the node's RAM and disk as the broker reported them (GET /api/nodes/NODE), at least twice a second */
  readonly node?: MeasuredNode;
  readonly url: string;
  readonly brokerVersion?: string;
};

/** one queue as the broker reported it during --verify-on */
export interface MeasuredQueue {
  readonly name: string;
  readonly peakDepth: number;
  readonly peakAtMs: number;
  /** the queue's own memory at its peak (its statistics: the queue process; a classic queue's bodies in RAM are not in it) */
  readonly peakMemoryBytes?: number;
  readonly series: DepthSeries;
}

export interface MeasuredNode {
  /** the node's memory (RSS) above what it used when the run began */
  readonly peakMemoryBytes: number;
  readonly peakMemoryAtMs: number;
  /** the node's memory categories that hold messages (queue processes, message-store index, binaries, quorum WAL tables) above the start */
  readonly peakMessageMemoryBytes: number;
  /** the node's disk use above what it was when the run began (from disk_free) */
  readonly peakDiskBytes: number;
  readonly samples: number;
  readonly alarms: readonly string[];
}

export interface RehearsalReport {
  readonly messages: number;
  /**
   * the copies the broker held (a message a fan-out routes to n queues is n copies); the outcomes
   * count messages, each once, by the fate of its copies (the copy ledger)
   */
  readonly copies: number;
  readonly outcomes: RehearsalOutcomes;
  readonly deliveries: number;
  /** deliveries per message */
  readonly amplification: number;
  /** publish to ack, acked messages only; null when none was acked */
  readonly delayMs: DelayPercentiles | null;
  /**
   * From the end of the last consumer outage until every retry-path queue and every held message
   * is back within the band of a baseline run of the same load without the outage; 0 without
   * outages, null when it never is.
   */
  readonly drainMs: number | null;
  readonly queues: readonly QueueRehearsal[];
  readonly held: readonly HeldRehearsal[];
  readonly node: NodeRehearsal;
  /** queues running a hot loop at the broker's rate (exit 1) */
  readonly loops: readonly HotLoop[];
  /** where the load asked a queue for more than its calibrated ceiling */
  readonly capacity: readonly CapacityShortfall[];
  readonly calibration: CalibrationUsed;
  readonly brokerOps: BrokerOpsPeaks;
  /** wall-clock time the rehearsal took */
  readonly wallMs: number;
  readonly durationMs: number;
  /** virtual time when the rehearsal ended */
  readonly endMs: number;
  /** stopped at durationMs + afterMs with work left */
  readonly truncated: boolean;
  readonly profile: BrokerProfileId;
  readonly bodyBytes: number;
  readonly consumerOutages: readonly RehearsalOutageSpan[];
  /** a message that always fails is tried this often, over this long, by every worker together (null: it never ends); with outages only */
  readonly failingAttempts?: { readonly attempts: number; readonly spanMs: number | null };
  /** messages that are poison for some consumer (they always fail there), when the load has any */
  readonly poisoned?: number;
  readonly mode: RehearsalMode;
  /** the series' sampling step (ms) */
  readonly seriesStepMs: number;
  readonly hops: number;
  readonly notes: readonly string[];
  readonly broker?: MeasuredRehearsal;
  /** --runs N: each figure's spread over N seeds */
  readonly runs?: RunsSummary;
}
