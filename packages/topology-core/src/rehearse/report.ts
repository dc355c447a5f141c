/**
 * The retry bill of materials: what a load with failures does to a retry topology. The JSON
 * names are the (#31) and the same for the CLI's --json, POST /api/rehearse and the
 * browser; `broker` (--verify-on) has the same names, measured on a real broker.
 */
import type { BrokerProfileId } from '../model/design.js';
import type { DelayPercentiles } from './delays.js';
import type { DepthSeries } from './queueDepths.js';

export interface RehearsalOutcomes {
  /** processed successfully (acked) */
  readonly acked: number;
  /** resting at the end in a queue off every retry path (a parking lot, a DLQ) */
  readonly parked: number;
  readonly parkedIn: Readonly<Record<string, number>>;
  /** discarded by the broker (no route, no DLX, overflow, a dead-letter cycle) */
  readonly dropped: number;
  /** expired where no dead-letter exchange took them */
  readonly expired: number;
  /** still on a retry path when the rehearsal ended */
  readonly inFlight: number;
}

export interface QueueRehearsal {
  readonly name: string;
  readonly peakDepth: number;
  readonly peakAtMs: number;
  readonly peakMemoryBytes: number;
  /** depth (ready + unacked) over time */
  readonly series: DepthSeries;
  /** the per-message overhead used for peakMemoryBytes, and its source */
  readonly memoryBasis?: { readonly overheadBytes: number; readonly source: string };
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
  'messages' | 'outcomes' | 'deliveries' | 'amplification' | 'delayMs' | 'drainMs' | 'queues' | 'wallMs'
> & {
  readonly url: string;
  readonly brokerVersion?: string;
};

export interface RehearsalReport {
  readonly messages: number;
  readonly outcomes: RehearsalOutcomes;
  readonly deliveries: number;
  /** deliveries per message */
  readonly amplification: number;
  /** publish to ack, acked messages only; null when none was acked */
  readonly delayMs: DelayPercentiles | null;
  /** from the end of the last outage until every retry-path queue is back to its steady depth; 0 without outages, null when it never is */
  readonly drainMs: number | null;
  readonly queues: readonly QueueRehearsal[];
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
  readonly outages: readonly RehearsalOutageSpan[];
  readonly mode: RehearsalMode;
  /** the series' sampling step (ms) */
  readonly seriesStepMs: number;
  readonly hops: number;
  readonly notes: readonly string[];
  readonly broker?: MeasuredRehearsal;
}
