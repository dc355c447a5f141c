/**
 * What the configuration does to a message that always fails, per consumer: its attempts, the
 * waits between them and where it ends, from the simulator (the same rules the rest of the
 * tool uses), so the readers' output is checked as behaviour, not as data.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { refusedQueueArguments } from '../model/arguments.js';
import type { Ending, MessageOutcome } from '../sim/messageOutcome.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { simulate } from '../sim/simulate.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';

export interface AppJourney {
  readonly consumer: string;
  readonly queue: string;
  readonly attempts: number;
  readonly delaysMs: readonly number[];
  readonly endsIn: Ending;
  /** what became of it: the one outcome every place states */
  readonly outcome: MessageOutcome;
  /** virtual ms at which the message reached its end */
  readonly endTime: number;
  /** the message the simulation sent: its publisher (a design publisher's id) and body */
  readonly message: { readonly publisher: string; readonly body: string };
}

/** Horizon of the run: long enough for NServiceBus's delayed rounds and Celery's 180 s waits. */
export const HORIZON_MS = 48 * 3600_000;

/** One message per consumer's entry publisher, always failing (or as told: prove-app's listener fails the first K). */
export function appJourneys(
  design: Design,
  opts: { readonly maxEvents?: number; readonly failure?: FailureModel } = {},
): AppJourney[] {
  const input = designToSimulation(design, { messages: 1, failure: opts.failure ?? { kind: 'always' } });
  const result = simulate({ ...input, maxTimeMs: HORIZON_MS, maxEvents: opts.maxEvents ?? 20_000 });
  const traces = traceMessages(result, { activeQueues: activeQueuesOf(design) });
  const out: AppJourney[] = [];
  for (const c of design.consumers) {
    const seen = new Set(
      result.events.filter((e) => e.kind === 'processed' && e.consumer === c.id).map((e) => e.msgId),
    );
    const t = traces.find((x) => seen.has(x.msgId));
    if (!t) continue;
    out.push({
      consumer: c.id,
      queue: c.queue,
      attempts: t.attempts,
      delaysMs: t.delaysMs,
      endsIn: t.endsIn,
      outcome: t.outcome,
      endTime: t.endTime,
      // designToSimulation names each message `<publisher id>-<n>`
      message: { publisher: t.msgId.replace(/-1$/, ''), body: t.body },
    });
  }
  return out;
}

/**
 * The arguments of a consumer's queue that the design's broker line refuses to declare: the queue
 * never exists there and the consumer never consumes (an anonymous Spring Cloud Stream group on 4.x).
 */
export function refusedQueueOf(design: Design, queue: string): string[] {
  const q = design.topology.queues.find((x) => x.name === queue);
  return refusedQueueArguments(q?.arguments, design.profile ?? '3.10');
}
