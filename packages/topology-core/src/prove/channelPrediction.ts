/**
 * What import-app predicts for each channel (a consumer and its queue) of an application read from
 * its configuration, for one message failing as prove-app's listener will fail it: always, or the
 * first K attempts. The simulator decides (the same rules as everywhere else); this only asks it.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { consumerNodeId } from '../model/nodeIds.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { simulate } from '../sim/simulate.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';
import type { MessageOutcome } from '../sim/messageOutcome.js';
import { HORIZON_MS } from '../appconfig/journey.js';
import { endOfOutcome, type ChannelEnd } from './channelEnd.js';

/** How prove-app's listener fails: every attempt, or the first `n` of each message. */
export type ProofFailure = { readonly kind: 'always' } | { readonly kind: 'failFirst'; readonly n: number };

export interface ChannelRun {
  readonly attempts: number;
  /** the waits between attempts, ms */
  readonly delaysMs: readonly number[];
  readonly end: ChannelEnd;
}

export interface ChannelPrediction extends ChannelRun {
  readonly consumer: string;
  readonly queue: string;
  /** the framework draws its waits at random below the stated wait (Celery's retry_jitter) */
  readonly jitter: boolean;
  /** virtual ms at which the message reached its end (how long a real run must be watched) */
  readonly endTime: number;
  readonly outcome: MessageOutcome;
  /** the message the simulation sent this channel: its publisher (a design publisher's id) and body */
  readonly message: { readonly publisher: string; readonly body: string };
}

const failureModel = (f: ProofFailure): FailureModel => (f.kind === 'always' ? f : { kind: 'failFirst', n: f.n });

/** One message per publisher, failing as told; per consumer the journey of the message it processed first. */
export function predictChannels(design: Design, failure: ProofFailure): ChannelPrediction[] {
  const input = designToSimulation(design, { messages: 1, failure: failureModel(failure) });
  const result = simulate({ ...input, maxTimeMs: HORIZON_MS, maxEvents: 20_000 });
  const traces = traceMessages(result, { activeQueues: activeQueuesOf(design) });
  const out: ChannelPrediction[] = [];
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
      end: endOfOutcome(t.outcome, c.queue),
      jitter: design.sources?.[consumerNodeId(c.id)]?.jitter === true,
      endTime: t.endTime,
      outcome: t.outcome,
      // designToSimulation names each message `<publisher id>-<n>`
      message: { publisher: t.msgId.replace(/-1$/, ''), body: t.body },
    });
  }
  return out;
}
