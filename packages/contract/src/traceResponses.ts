/** /api/trace: the start, the prediction and its comparison, the notices on the event stream, the summary. */
import type { NodeLoss, RetryHorizon, SimEvent } from '@retry-studio/topology-core/sim';
import type { DeployTarget } from './planResponses.js';

export interface TraceStart {
  readonly id: string;
  readonly broker: string;
  readonly target: DeployTarget;
  /** the Server-Sent Events stream of the live events */
  readonly events: string;
  /** where the prediction and the comparison are read */
  readonly prediction: string;
  readonly warning?: string;
}

/** Where the live trace first parts from the simulator's prediction for one message (the server's trace/prediction.ts). */
export interface Difference {
  readonly msgId: string;
  readonly body: string;
  readonly what: 'milestone' | 'routing';
  /** index in the message's step list (-1: compared as a multiset) */
  readonly index: number;
  readonly predicted?: string;
  readonly actual?: string;
  /** the actual event where they part (for the canvas to highlight) */
  readonly at?: { readonly t: number; readonly seq: number };
  /** the hop where they part: the exchange or queue of the step that differs */
  readonly where?: { readonly exchange?: string; readonly queue?: string };
  /** an at-least-once duplicate: the message was processed again after a redelivery (a leader move), an extra delivery, not a wrong route */
  readonly atLeastOnce?: true;
}

export interface Comparison {
  readonly messagesCompared: number;
  readonly matching: number;
  readonly firstDifference?: Difference;
  readonly differences: readonly Difference[];
  /** of the differences, at-least-once duplicates (see Difference.atLeastOnce) */
  readonly atLeastOnce: number;
  readonly note?: string;
}

export interface PredictionResponse {
  readonly comparison: Comparison;
  /** the node loss the prediction includes: the one asked for, or the one the trace observed on a cluster */
  readonly nodeLoss?: NodeLoss & { readonly source: 'request' | 'observed' };
  /** the predicted SimEvents (absent with ?events=0) */
  readonly predicted?: readonly SimEvent[];
  /** how far in virtual time the prediction ran: the design's horizon (its longest TTL chain, sim/retryHorizon.ts) */
  readonly horizon: RetryHorizon;
  readonly note?: string;
}

/** What the stream carries besides SimEvents (`event: notice`): warnings, the end of the trace (its summary as JSON). */
export interface TraceNotice {
  readonly kind: 'notice';
  readonly level: 'info' | 'warn' | 'error';
  readonly code: string;
  readonly message: string;
  readonly t: number;
}

/** The trace's test publisher: publishes, confirms, nacks, retries and its confirm window. */
export interface TracePublishStats {
  readonly published: number;
  readonly confirmed: number;
  readonly nacked: number;
  readonly retried: number;
  readonly maxInFlight: number;
  readonly windowWaits: number;
}

/**
 * A cluster node the trace saw go down (the first one), as the simulator's NodeLoss with the
 * observed times (trace ms, known to one poll interval; the server's trace/nodeLossWatch.ts).
 */
export interface ObservedNodeLoss extends NodeLoss {
  /** trace ms at which each quorum queue the node led was seen led elsewhere (absent: not seen) */
  readonly leadersMovedAtMs: Readonly<Record<string, number>>;
  /** trace ms at which the node was seen running again (absent: not before the trace ended) */
  readonly backAtMs?: number;
}

/**
 * GET /api/trace/:id and POST /api/trace/:id/stop: what happened to every published message
 * (each counted once: published = acked + parked + inFlight + dropped), what the broker holds,
 * and what the trace saw on the way (the server's trace/traceSummary.ts builds it).
 */
export interface TraceSummary {
  readonly id: string;
  /**
   * `complete`: every message asked for was published and confirmed and the trace settled;
   * `incomplete`: it could not publish everything (a channel or connection refused);
   * `failed`: its connection is gone for good (a reconnect refused) or it could not start;
   * `stopped`: stopped by the user or because the topology changed. `endReason` says why.
   */
  readonly state: 'running' | 'complete' | 'incomplete' | 'stopped' | 'failed';
  /** messages the trace was asked to publish */
  readonly asked: number;
  readonly published: number;
  readonly confirmed: number;
  /** messages whose copies all ended acked by a worker */
  readonly acked: number;
  /** messages resting in queues nobody consumes and nothing expires (parking lots, DLQs) */
  readonly parked: number;
  /** messages with a copy still moving: in a consumed or TTL queue, at a consumer, in transit */
  readonly inFlight: number;
  readonly dropped: number;
  /** every message asked for was published, and each is counted once: asked = published = acked + parked + inFlight + dropped */
  readonly balanced: boolean;
  /** published messages with no known fate (at most 100 ids) */
  readonly unaccounted: readonly string[];
  /** the trace hit its duration while still waiting for this */
  readonly endedWaitingFor?: string;
  /** why the trace ended early (the topology changed under it, ...) */
  readonly endReason?: string;
  readonly resting: Readonly<Record<string, number>>;
  readonly brokerDepths: Readonly<Record<string, { readonly ready: number; readonly unacked: number }>>;
  readonly ttlWaits: Readonly<Record<string, { readonly n: number; readonly avgMs: number; readonly maxMs: number }>>;
  readonly events: number;
  readonly eventCounts: Readonly<Record<string, number>>;
  /** events sent before the broker copy they follow was seen (waited the longest hold) */
  readonly outOfOrder: number;
  readonly publish: TracePublishStats;
  readonly reconnects: number;
  readonly cancelledConsumers: readonly string[];
  /**
   * messages a worker processed successfully twice on the same queue: redelivered after its ack
   * was lost (a consumer's channel closed, a queue's leader moved). Delivery is at-least-once
   * here: every worker acks after processing, so a duplicate is that, not a loss or a bug.
   */
  readonly duplicates: number;
  /** queues that could not be reached during the trace (their node was down), with when (ms, as first and last sampled) */
  readonly unavailable: Readonly<Record<string, { readonly fromMs: number; readonly untilMs?: number }>>;
  /**
   * per queue that was unavailable, messages the trace saw routed into it that the broker does not
   * hold: dead letters routed to it while its node was down are dropped by RabbitMQ (dead-lettering
   * is at-most-once), which the trace cannot see message by message
   */
  readonly lostWhileUnavailable: Readonly<Record<string, number>>;
  /**
   * per parking queue, dead letters the broker dropped (its own count is short of what the trace
   * saw dead-lettered into it; quorum queues dead-letter at most once by default): counted in
   * `dropped`, not `parked`; absent when none
   */
  readonly deadLettersDropped?: Readonly<Record<string, number>>;
  /**
   * per parking queue, dead letters the broker holds twice (its own count is over what the trace
   * saw dead-lettered into it: at-least-once dead-lettering sends again a dead letter whose
   * confirm was lost in a leader move); `parked` counts each message once; absent when none
   */
  readonly deadLettersDuplicated?: Readonly<Record<string, number>>;
  /** the node loss the trace observed: the prediction is run again with it */
  readonly nodeLoss?: ObservedNodeLoss;
  readonly latencyMs: { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number };
  readonly error?: string;
}
