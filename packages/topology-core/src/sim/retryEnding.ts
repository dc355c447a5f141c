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
import { designToSimulation, usesV43Features } from './designToSimulation.js';
import { designParts } from './designParts.js';
import { retryHorizon } from './retryHorizon.js';
import { isMoving } from './messageOutcome.js';
import { activeQueuesOf, deadLetteringQueuesOf, traceMessages, type MessageTrace } from './messageTrace.js';

/** Enough for dozens of attempts through any template's loop, small enough to lint as you type. */
export const RETRY_RUN_MAX_EVENTS = 5_000;
const RETRY_RUN_MAX_TIME_MS = 7 * 24 * 3600 * 1000;

export interface RetryRun {
  readonly publisher: string;
  readonly trace: MessageTrace;
  /** this message's events */
  readonly events: readonly SimEvent[];
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

/** One run per publisher: a loop of one message cannot use up another's bound (its message would read as still moving). */
export function boundedRetryRuns(design: Design, failure: FailureModel): RetryRun[] {
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const active = activeQueuesOf(design);
  const deadLettering = deadLetteringQueuesOf(design.topology);
  // each publisher on its own part of the design (designParts.ts): the same run, without the unrelated rest
  const partOf = designParts(design);
  const profileOptions = design.profile === '4.x' && usesV43Features(design.topology) ? { v43: true } : undefined;
  return design.publishers.flatMap((p, i) => {
    const part = partOf(i);
    const input = designToSimulation(failingWith(part, failure), {
      messages: 1,
      failure,
      ...(profileOptions ? { profileOptions } : {}),
    });
    // a week, or the part's horizon where its TTL chains are longer: a wait is never cut off as a loop
    const maxTimeMs = Math.max(RETRY_RUN_MAX_TIME_MS, retryHorizon(part).ms);
    const result = simulate({ ...input, maxEvents: RETRY_RUN_MAX_EVENTS, maxTimeMs });
    const traces = traceMessages(result, {
      activeQueues: active,
      deadLettering,
      // the part's own workers: its events name no other consumer (the design's 5,000 made a set per run)
      ...(workers.length > 0
        ? { workConsumers: part.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id) }
        : {}),
    });
    const trace = traces.find((t) => t.msgId === `${p.id}-1`);
    if (!trace) return [];
    return [{ publisher: p.id, trace, events: result.events.filter((e) => e.msgId === trace.msgId) }];
  });
}

/** Whether a run's message never came to an end (parked, dropped or acked) within the bound, and is not merely waiting out a TTL. */
export const neverEnds = (r: RetryRun): boolean => isMoving(r.trace.outcome);

/**
 * Under fail-first n, a message acked at attempt n+1 is acked (the events say so), but when,
 * failing every time, the same message would never end, its outcome says that too: the ack came
 * only from the failure model, the design's retry does not end by itself.
 * Traces carry the design's message ids (`${publisher}-${n}`).
 */
export function markNeverEndsFailingAlways(
  design: Design,
  failure: FailureModel,
  traces: readonly MessageTrace[],
): MessageTrace[] {
  if (failure.kind !== 'failFirst') return [...traces];
  const at = failure.n + 1;
  const suspects = traces.filter((t) => t.outcome.kind === 'acked' && t.attempts === at);
  if (suspects.length === 0) return [...traces];
  const forever = new Set(
    boundedRetryRuns(design, { kind: 'always' })
      .filter(neverEnds)
      .map((r) => r.publisher),
  );
  const from = (msgId: string): string | undefined =>
    design.publishers.find((p) => msgId.startsWith(`${p.id}-`) && /^[0-9]+$/.test(msgId.slice(p.id.length + 1)))?.id;
  return traces.map((t) =>
    suspects.includes(t) && t.outcome.kind === 'acked' && forever.has(from(t.msgId) ?? '')
      ? { ...t, outcome: { ...t.outcome, neverEndsFailingAlways: true } }
      : t,
  );
}
