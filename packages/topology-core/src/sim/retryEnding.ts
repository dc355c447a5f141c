/**
 * Does a design's retry end by itself? One message per publisher, every worker failing (always,
 * or the first K attempts), in a run bounded by events: a message that is neither parked,
 * dropped nor acked by then retries forever. The linter proves retries end with it, and the
 * budget and the CLI use it to tell a fail-first-K ack that only the failure model's cap gave.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { SimEvent } from './events.js';
import { simulate } from './simulate.js';
import { designToSimulation } from './designToSimulation.js';
import { activeQueuesOf, traceMessages, type MessageTrace } from './messageTrace.js';

/** Enough for dozens of attempts through any template's loop, small enough to lint as you type. */
export const RETRY_RUN_MAX_EVENTS = 5_000;
const RETRY_RUN_MAX_TIME_MS = 7 * 24 * 3600 * 1000;

export interface RetryRun {
  readonly publisher: string;
  readonly trace: MessageTrace;
  /** this message's events */
  readonly events: readonly SimEvent[];
  /** the bound cut the run while this message was still on its way (a republish-then-ack loop reads as acked in the trace) */
  readonly moving: boolean;
}

/** Every worker fails by `failure` (their own failure models set aside). */
function failingWith(design: Design, failure: FailureModel): Design {
  return {
    ...design,
    consumers: design.consumers.map((c) =>
      c.behaviour.kind === 'worker' ? { ...c, behaviour: { ...c.behaviour, failure } } : c,
    ),
  };
}

export function boundedRetryRuns(design: Design, failure: FailureModel): RetryRun[] {
  const input = designToSimulation(failingWith(design, failure), { messages: 1, failure });
  const result = simulate({ ...input, maxEvents: RETRY_RUN_MAX_EVENTS, maxTimeMs: RETRY_RUN_MAX_TIME_MS });
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const active = activeQueuesOf(design);
  const traces = traceMessages(result, {
    activeQueues: active,
    ...(workers.length > 0 ? { workConsumers: workers } : {}),
  });
  // indexed once: looked up per publisher, 700 publishers took seconds
  const traceOf = new Map(traces.map((t) => [t.msgId, t]));
  const eventsOf = new Map<string, Array<(typeof result.events)[number]>>();
  for (const e of result.events) {
    const list = eventsOf.get(e.msgId);
    if (list) list.push(e);
    else eventsOf.set(e.msgId, [e]);
  }
  const waitingIds = new Set<string>();
  for (const [q, ms] of Object.entries(result.final)) if (active.has(q)) for (const m of ms) waitingIds.add(m.msgId);
  return design.publishers.flatMap((p) => {
    const trace = traceOf.get(`${p.id}-1`);
    if (!trace) return [];
    const events = eventsOf.get(trace.msgId) ?? [];
    const last = events[events.length - 1];
    const waiting = waitingIds.has(trace.msgId);
    const moving =
      result.truncated && (waiting || (last !== undefined && last.kind !== 'acked' && last.kind !== 'dropped'));
    return [{ publisher: p.id, trace, events, moving }];
  });
}

/** Whether a run's message never came to an end (parked, dropped or acked) within the bound. */
export const neverEnds = (r: RetryRun): boolean => r.moving || r.trace.endsIn.kind === 'cycling';

/**
 * Under fail-first n, a message acked at attempt n+1 was saved by the failure model's cap when,
 * failing every time, it would never end: its outcome is `attempt-cap`, not `acked`.
 * Traces carry the design's message ids (`${publisher}-${n}`).
 */
export function markAttemptCap(design: Design, failure: FailureModel, traces: readonly MessageTrace[]): MessageTrace[] {
  if (failure.kind !== 'failFirst') return [...traces];
  const at = failure.n + 1;
  const suspects = traces.filter((t) => t.endsIn.kind === 'acked' && t.attempts === at);
  if (suspects.length === 0) return [...traces];
  const forever = new Set(
    boundedRetryRuns(design, { kind: 'always' })
      .filter(neverEnds)
      .map((r) => r.publisher),
  );
  const from = (msgId: string): string | undefined =>
    design.publishers.find((p) => msgId.startsWith(`${p.id}-`) && /^[0-9]+$/.test(msgId.slice(p.id.length + 1)))?.id;
  return traces.map((t) =>
    suspects.includes(t) && forever.has(from(t.msgId) ?? '')
      ? { ...t, endsIn: { kind: 'attempt-cap', attempts: t.attempts } }
      : t,
  );
}
