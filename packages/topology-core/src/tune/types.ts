/** The tuner's vocabulary: what to survive (the failure profile), what must hold (the goals), what it found. */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { ParamValues } from '../templates/types.js';

/** What the system must survive. Every candidate is rehearsed once per outage length. */
export interface FailureProfile {
  /** arrivals, messages per second */
  readonly rate: number;
  /** how long each rehearsal publishes, ms */
  readonly durationMs: number;
  /** when each outage starts, ms after the first publish */
  readonly outageStartMs: number;
  readonly outageLengthsMs: readonly number[];
  /** share (0..1) of attempts outside an outage that fail */
  readonly errorRate: number;
  /** share (0..1) of messages that always fail */
  readonly poison: number;
  readonly processingMs: number;
  /** consumers x prefetch on the failing consumer; undefined = unbounded */
  readonly concurrency?: number;
  readonly bodyBytes: number;
  readonly profile: BrokerProfileId;
  /** the broker node's RAM and free disk (the rehearsal's defaults when absent) */
  readonly brokerMemoryBytes?: number;
  readonly diskFreeBytes?: number;
}

/** What must hold under every outage length. "Nothing that can succeed is parked or dropped" always holds. */
export interface TuneGoals {
  readonly deadlineMs?: number;
  /** share (0..1) of the messages that can succeed acked within the deadline; default 0.99 */
  readonly deadlineShare: number;
  readonly maxAmplification?: number;
  readonly maxMemoryBytes?: number;
  readonly maxDepth?: number;
}

/** `capacity`: more work than the consumers or the broker can do (a backlog that grows, a hot loop, a memory alarm) */
export type GoalId = 'no-loss' | 'deadline' | 'max-amplification' | 'max-memory' | 'max-depth' | 'capacity';

/** One goal missed, under one outage length, with the figure that missed it. */
export interface GoalMiss {
  readonly goal: GoalId;
  readonly outageLengthMs: number;
  readonly message: string;
}

/** The figures of one rehearsal that the tuner reads (the rehearsal's own names). */
export interface TuneMetrics {
  readonly outageLengthMs: number;
  readonly messages: number;
  readonly outcomes: {
    readonly acked: number;
    readonly parked: number;
    readonly dropped: number;
    readonly expired: number;
    readonly inFlight: number;
  };
  /** parked or dropped messages that were not poison (could have succeeded) */
  readonly lostGood: number;
  readonly deliveries: number;
  readonly amplification: number;
  readonly delayMs: { readonly p50: number; readonly p95: number; readonly p99: number; readonly max: number };
  /** share of the messages that can succeed acked within the deadline (when a deadline is set) */
  readonly withinDeadline?: number;
  readonly drainMs: number | null;
  /** the deepest queue, or the most held by a delayed retry or a delayed-message exchange */
  readonly peakDepth: number;
  /** held for later and counted in no queue's depth (delayed-message exchange, 4.3 delayed retry) */
  readonly peakHeld: number;
  /** the node's RAM at its peak above its idle use (queues, held messages, the quorum WAL) */
  readonly peakMemoryBytes: number;
  readonly peakDiskBytes: number;
  /** a hot loop, a memory or disk alarm, a queue asked beyond its ceiling: said; undefined when none */
  readonly capacity?: string;
  /** broker operations over the run: publishes + dead-letterings + deliveries */
  readonly brokerOps: number;
}

/** A point of the search: a template with its parameters, or a variant of the user's design. */
export interface Candidate {
  /** template id, or the design's name for --from */
  readonly strategy: string;
  readonly params: ParamValues;
  readonly design: Design;
  /** broker objects: exchanges + queues + bindings + policies */
  readonly objects: number;
  /** ms from the first attempt to the last for a message that always fails (Infinity: never ends) */
  readonly spanMs: number;
}

export interface Evaluated {
  readonly candidate: Candidate;
  /** one per outage length rehearsed (longest first; stops at the first miss) */
  readonly metrics: readonly TuneMetrics[];
  readonly misses: readonly GoalMiss[];
}

export interface Recommendation {
  readonly strategy: string;
  readonly params: ParamValues;
  /** under the longest outage (the others are in `byOutage`) */
  readonly metrics: TuneMetrics;
  readonly byOutage: readonly TuneMetrics[];
  readonly design: Design;
  readonly cost: TuneCost;
  /** why it was chosen, in one sentence */
  readonly why: string;
  /** rehearsed again at twice the longest outage: does it still hold? */
  readonly robustness?: Robustness;
  /** what to know before running it (the delayed-message exchange's limits) */
  readonly caveat?: string;
}

export interface Robustness {
  readonly outageLengthMs: number;
  readonly metrics: TuneMetrics;
  /** the goals it misses then (empty: it holds) */
  readonly misses: readonly GoalMiss[];
}

/** The stated cost, compared in this order: broker operations, then RAM, then disk, then objects. */
export interface TuneCost {
  readonly brokerOps: number;
  readonly memoryBytes: number;
  readonly diskBytes: number;
  readonly objects: number;
}

export interface ParetoPoint {
  readonly strategy: string;
  readonly params: ParamValues;
  readonly p99DelayMs: number;
  readonly amplification: number;
  readonly peakMemoryBytes: number;
  /** other parameter sets with these same figures, collapsed into this entry */
  readonly equivalent?: readonly { readonly strategy: string; readonly params: ParamValues }[];
}

export interface TuneResult {
  readonly feasible: boolean;
  readonly recommendations: readonly Recommendation[];
  readonly pareto: readonly ParetoPoint[];
  /** when nothing is feasible: the goal(s) that rule every candidate out, said plainly */
  readonly infeasibleBecause?: readonly { readonly goal: GoalId; readonly message: string }[];
  readonly stats: {
    readonly candidates: number;
    readonly pruned: number;
    readonly rehearsals: number;
    readonly wallMs: number;
  };
}
