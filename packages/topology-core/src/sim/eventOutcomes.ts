/**
 * Each message's outcome read from an event stream alone (a live trace's, or a run's events
 * without its final queues): where its copies are is the copy ledger's (copyLedger.ts, the rules
 * the server's trace accounting, the web's playback and the rehearsal read too), and the outcome
 * is then decided by the one function every place reads (messageOutcome.ts via messageTrace.ts).
 * So a live lane and a predicted lane state their outcome with the same words and rules.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { SimEvent } from './events.js';
import { activeQueuesOf, deadLetteringQueuesOf, streamsOf, traceEvents } from './messageTrace.js';
import { markNeverEndsFailingAlways } from './retryEnding.js';
import type { RunOutcomes } from './runOutcomes.js';

/**
 * How a design's events are read for fates, once for every reader (outcomes from events, a live
 * trace's accounting, the rehearsal): its streams, work consumers (its workers; none: every
 * consumer), the queues where a copy keeps moving and those with a dead-letter route, its queue order.
 */
export interface FateRules {
  readonly streams: ReadonlySet<string>;
  readonly workConsumers: readonly string[] | undefined;
  readonly active: ReadonlySet<string>;
  readonly deadLettering: ReadonlySet<string>;
  /** the design's order of queues (a message resting in several is parked in the first), then any other */
  readonly rank: (queue: string) => number;
}

export function fateRulesOf(design: Pick<Design, 'topology' | 'consumers'>): FateRules {
  const order = new Map(design.topology.queues.map((q, i) => [q.name, i]));
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  return {
    streams: streamsOf(design),
    workConsumers: workers.length > 0 ? workers : undefined,
    active: activeQueuesOf(design),
    deadLettering: deadLetteringQueuesOf(design.topology),
    rank: (q) => order.get(q) ?? Number.MAX_SAFE_INTEGER,
  };
}

export interface EventOutcomeOptions {
  /** the run or trace is still going: a message at a consumer is being processed, not held */
  readonly running: boolean;
  /** the failure model the workers used (a fail-first ack that only the cap gave is said so) */
  readonly failure?: FailureModel;
}

/**
 * Outcomes of a stream of events on `design`. A message with a copy still on its way (at a
 * consumer while running, rejected and not yet dead-lettered, between queues, or ready where a
 * consumer or a TTL moves it on) is still moving; one whose every copy came to rest is parked,
 * acked, dropped or held, as the simulator's run would say.
 */
export function outcomesOfEvents(design: Design, events: readonly SimEvent[], opts: EventOutcomeOptions): RunOutcomes {
  const rules = fateRulesOf(design);
  const endTime = events.reduce((t, e) => Math.max(t, e.t), 0);
  const traces = traceEvents(
    events,
    {
      activeQueues: rules.active,
      deadLettering: rules.deadLettering,
      streams: rules.streams,
      ...(rules.workConsumers ? { workConsumers: rules.workConsumers } : {}),
    },
    {
      truncatedFor: (c) => c.onItsWay(opts.running, (q) => rules.active.has(q)),
      endTime,
      rank: rules.rank,
    },
  );
  const marked = opts.failure ? markNeverEndsFailingAlways(design, opts.failure, traces) : traces;
  return { traces: marked, byMsg: new Map(marked.map((t) => [t.msgId, t.outcome])) };
}
