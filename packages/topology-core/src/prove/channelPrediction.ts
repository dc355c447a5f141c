/**
 * What import-app predicts for each channel (a consumer and its queue) of an application read from
 * its configuration, for one message failing as prove-app's listener will fail it: always, or the
 * first K attempts. The simulator decides (the same rules as everywhere else); this only asks it.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { consumerNodeId } from '../model/nodeIds.js';
import type { MessageOutcome } from '../sim/messageOutcome.js';
import { appJourneys, refusedQueueOf } from '../appconfig/journey.js';
import { endOfOutcome, NEVER_CONSUMES, UNKNOWN_END, type ChannelEnd } from './channelEnd.js';

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
  /** the queue's arguments the broker refuses: it is never declared and the listener never consumes */
  readonly refused?: readonly string[];
  /** why import-app cannot predict this channel (the code that decides a failure is not read); its end is `unknown` */
  readonly unknown?: string;
}

const failureModel = (f: ProofFailure): FailureModel => (f.kind === 'always' ? f : { kind: 'failFirst', n: f.n });

/**
 * One message per publisher, failing as told; per consumer the journey of the message it processed
 * first (import-app's own journeys). A consumer whose queue the broker line refuses never consumes;
 * one whose failure is decided by code the reader did not read is `unknown` (never a silent guess).
 */
export function predictChannels(design: Design, failure: ProofFailure): ChannelPrediction[] {
  return appJourneys(design, { failure: failureModel(failure) }).map((j) => {
    const refused = refusedQueueOf(design, j.queue);
    const unread = design.sources?.[consumerNodeId(j.consumer)]?.notes?.find((n) => n.failurePathUnread);
    const run: ChannelRun = refused.length
      ? { attempts: 0, delaysMs: [], end: NEVER_CONSUMES }
      : { attempts: j.attempts, delaysMs: j.delaysMs, end: unread ? UNKNOWN_END : endOfOutcome(j.outcome, j.queue) };
    return {
      consumer: j.consumer,
      queue: j.queue,
      ...run,
      jitter: design.sources?.[consumerNodeId(j.consumer)]?.jitter === true,
      endTime: refused.length ? 0 : j.endTime,
      outcome: j.outcome,
      message: j.message,
      ...(refused.length ? { refused } : {}),
      ...(unread && !refused.length ? { unknown: `line ${unread.line}: ${unread.text}` } : {}),
    };
  });
}
