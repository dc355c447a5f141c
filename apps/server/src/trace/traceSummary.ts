/**
 * A trace's summary: what happened to every published message (each counted once: published =
 * acked + parked + inFlight + dropped), what the broker holds, and what the trace saw on the
 * way. Built from the coordinator's parts (traceSession.ts) while it runs and once at the end.
 */
import { percentile, type EventLog } from './eventLog.js';
import type { Balance, TraceAccounting } from './accounting.js';
import type { Depth } from './depthSampler.js';
import type { ObservedNodeLoss } from './nodeLossWatch.js';
import type { Unavailability } from './queueAvailability.js';
import type { TestPublisher } from './testPublisher.js';

export interface TraceSummary {
  readonly id: string;
  readonly state: 'running' | 'complete' | 'stopped' | 'failed';
  readonly published: number;
  readonly confirmed: number;
  /** messages whose copies all ended acked by a worker */
  readonly acked: number;
  /** messages resting in queues nobody consumes and nothing expires (parking lots, DLQs) */
  readonly parked: number;
  /** messages with a copy still moving: in a consumed or TTL queue, at a consumer, in transit */
  readonly inFlight: number;
  readonly dropped: number;
  /** each published message is counted once: published = acked + parked + inFlight + dropped */
  readonly balanced: boolean;
  /** published messages with no known fate (at most 100 ids) */
  readonly unaccounted: readonly string[];
  /** the trace hit its duration while still waiting for this */
  readonly endedWaitingFor?: string;
  /** why the trace ended early (the topology changed under it, ...) */
  readonly endReason?: string;
  readonly resting: Readonly<Record<string, number>>;
  readonly brokerDepths: Readonly<Record<string, { ready: number; unacked: number }>>;
  readonly ttlWaits: Readonly<Record<string, { n: number; avgMs: number; maxMs: number }>>;
  readonly events: number;
  readonly eventCounts: Readonly<Record<string, number>>;
  /** events sent before the broker copy they follow was seen (waited the longest hold) */
  readonly outOfOrder: number;
  readonly publish: TestPublisher['stats'];
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
   * `dropped`, not `parked` (deadLetterCounts.ts); absent when none
   */
  readonly deadLettersDropped?: Readonly<Record<string, number>>;
  /**
   * per parking queue, dead letters the broker holds twice (its own count is over what the trace
   * saw dead-lettered into it: at-least-once dead-lettering sends again a dead letter whose
   * confirm was lost in a leader move); `parked` counts each message once; absent when none
   */
  readonly deadLettersDuplicated?: Readonly<Record<string, number>>;
  /**
   * a cluster node the trace saw go down (the first one), as the simulator's NodeLoss with the
   * observed times (trace ms, known to one poll interval): the prediction is run again with it
   */
  readonly nodeLoss?: ObservedNodeLoss;
  readonly latencyMs: { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number };
  readonly error?: string;
}

/** What a summary is made of (design names throughout). */
export interface SummaryParts {
  readonly id: string;
  readonly state: TraceSummary['state'];
  readonly balance: Balance;
  readonly accounting: TraceAccounting;
  /** the trace's copies resting per queue */
  readonly resting: Record<string, number>;
  /** the broker's depths (design names) */
  readonly brokerDepths: Record<string, Depth>;
  readonly log: EventLog;
  readonly publish: TestPublisher['stats'];
  readonly reconnects: number;
  readonly cancelledConsumers: readonly string[];
  readonly duplicates: number;
  readonly unavailable: Readonly<Record<string, Unavailability>>;
  readonly lostWhileUnavailable: Record<string, number>;
  readonly deadLettersDropped: Readonly<Record<string, number>>;
  readonly deadLettersDuplicated: Readonly<Record<string, number>>;
  readonly nodeLoss: ObservedNodeLoss | undefined;
  readonly endedWaitingFor: string | undefined;
  readonly endReason: string | undefined;
  readonly error: string | undefined;
}

export function traceSummary(p: SummaryParts): TraceSummary {
  const b = p.balance;
  // dead letters the broker dropped were counted parked by the trace: they are dropped
  const dlDropped = Object.values(p.deadLettersDropped).reduce((n, x) => n + x, 0);
  const ttlWaits: Record<string, { n: number; avgMs: number; maxMs: number }> = {};
  for (const [q, w] of p.accounting.ttlWaits) ttlWaits[q] = { n: w.n, avgMs: Math.round(w.totalMs / w.n), maxMs: Math.round(w.maxMs) };
  const lat = p.log.latencies;
  return {
    id: p.id,
    state: p.state,
    published: b.published,
    confirmed: p.accounting.confirmed.size,
    acked: b.acked,
    parked: b.parked - dlDropped,
    inFlight: b.inFlight,
    dropped: b.dropped + dlDropped,
    balanced: b.balanced,
    unaccounted: b.unaccounted,
    ...(p.endedWaitingFor ? { endedWaitingFor: p.endedWaitingFor } : {}),
    ...(p.endReason ? { endReason: p.endReason } : {}),
    resting: p.resting,
    brokerDepths: p.brokerDepths,
    ttlWaits,
    events: p.log.total,
    eventCounts: { ...p.log.counts },
    outOfOrder: p.accounting.forcedOut,
    publish: { ...p.publish },
    reconnects: p.reconnects,
    cancelledConsumers: p.cancelledConsumers,
    duplicates: p.duplicates,
    lostWhileUnavailable: p.lostWhileUnavailable,
    ...(dlDropped > 0 ? { deadLettersDropped: { ...p.deadLettersDropped } } : {}),
    ...(Object.keys(p.deadLettersDuplicated).length > 0 ? { deadLettersDuplicated: { ...p.deadLettersDuplicated } } : {}),
    ...(p.nodeLoss ? { nodeLoss: p.nodeLoss } : {}),
    unavailable: p.unavailable,
    latencyMs: { n: lat.length, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) },
    ...(p.error ? { error: p.error } : {}),
  };
}
