/** /api/trace: the start, the prediction and its comparison, the notices on the event stream, the summary. */
import type { NodeLoss, SimEvent } from '@retry-studio/topology-core';
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
  /** an at-least-once duplicate: processed again after a redelivery (a leader move), not a wrong route */
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
  readonly note?: string;
}

/** A non-event frame of the stream (`event: notice`): warnings, the end of the trace (its summary as JSON). */
export interface TraceNotice {
  readonly kind: 'notice';
  readonly level: 'info' | 'warn' | 'error';
  readonly code: string;
  readonly message: string;
  readonly t: number;
}

/** GET /api/trace/:id and POST /api/trace/:id/stop. Each published message is counted once: published = acked + parked + inFlight + dropped. */
export interface TraceSummary {
  readonly id: string;
  readonly state: 'running' | 'complete' | 'stopped' | 'failed';
  readonly published: number;
  readonly confirmed: number;
  readonly acked: number;
  readonly parked: number;
  readonly inFlight: number;
  readonly dropped: number;
  readonly balanced: boolean;
  readonly unaccounted: readonly string[];
  readonly endedWaitingFor?: string;
  readonly endReason?: string;
  readonly resting: Readonly<Record<string, number>>;
  readonly brokerDepths: Readonly<Record<string, { readonly ready: number; readonly unacked: number }>>;
  readonly ttlWaits: Readonly<Record<string, { readonly n: number; readonly avgMs: number; readonly maxMs: number }>>;
  readonly events: number;
  readonly eventCounts: Readonly<Record<string, number>>;
  readonly outOfOrder: number;
  readonly publish: { readonly published: number; readonly confirmed: number; readonly nacked: number; readonly retried: number; readonly maxInFlight: number; readonly windowWaits: number };
  readonly reconnects: number;
  readonly cancelledConsumers: readonly string[];
  readonly duplicates: number;
  readonly unavailable: Readonly<Record<string, { readonly fromMs: number; readonly untilMs?: number }>>;
  readonly lostWhileUnavailable: Readonly<Record<string, number>>;
  readonly deadLettersDropped?: Readonly<Record<string, number>>;
  readonly deadLettersDuplicated?: Readonly<Record<string, number>>;
  readonly nodeLoss?: NodeLoss;
  readonly latencyMs: { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number };
  readonly error?: string;
}
