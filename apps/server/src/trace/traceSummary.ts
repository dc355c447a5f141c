/**
 * A trace's summary: what happened to every published message (each counted once: published =
 * acked + parked + inFlight + dropped), what the broker holds, and what the trace saw on the
 * way. Built from the coordinator's parts (traceSession.ts) while it runs and once at the end;
 * the type is the contract's (GET /api/trace/:id).
 */
import { percentile, type EventLog } from './eventLog.js';
import type { Balance, TraceAccounting } from './accounting.js';
import type { Depth } from './depthSampler.js';
import type { ObservedNodeLoss } from './nodeLossWatch.js';
import type { TraceSummary } from '@retry-studio/contract';
import type { Unavailability } from './queueAvailability.js';
import type { TestPublisher } from './testPublisher.js';

export type { TraceSummary };

/** What a summary is made of (design names throughout). */
export interface SummaryParts {
  readonly id: string;
  readonly state: TraceSummary['state'];
  /** messages the trace was asked to publish */
  readonly asked: number;
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
  for (const [q, w] of p.accounting.ttlWaits)
    ttlWaits[q] = { n: w.n, avgMs: Math.round(w.totalMs / w.n), maxMs: Math.round(w.maxMs) };
  const lat = p.log.latencies;
  return {
    id: p.id,
    state: p.state,
    asked: p.asked,
    published: b.published,
    confirmed: p.accounting.confirmed.size,
    acked: b.acked,
    parked: b.parked - dlDropped,
    inFlight: b.inFlight,
    dropped: b.dropped + dlDropped,
    balanced: b.balanced && b.published === p.asked,
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
    // processed twice by a worker, plus copies a parking queue holds twice (a publish or dead letter sent again after its confirm was lost)
    duplicates: p.duplicates + Object.values(p.deadLettersDuplicated).reduce((n, x) => n + x, 0),
    lostWhileUnavailable: p.lostWhileUnavailable,
    ...(dlDropped > 0 ? { deadLettersDropped: { ...p.deadLettersDropped } } : {}),
    ...(Object.keys(p.deadLettersDuplicated).length > 0
      ? { deadLettersDuplicated: { ...p.deadLettersDuplicated } }
      : {}),
    ...(p.nodeLoss ? { nodeLoss: p.nodeLoss } : {}),
    unavailable: p.unavailable,
    latencyMs: { n: lat.length, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) },
    ...(p.error ? { error: p.error } : {}),
  };
}
