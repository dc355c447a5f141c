/**
 * What became of one message in a run or a trace: THE outcome that every place states (timeline
 * lanes, message detail, budget, compare, simulate, lint's retry rules, the upgrade check, template
 * explanations, a live trace's accounting, the web's playback, the rehearsal's outcomes). Decided
 * here once (decideOutcome), from the message's copies as the copy ledger (copyLedger.ts) has them.
 *
 * The vocabulary, once: a message is still moving (a copy in flight, or waiting where a consumer
 * or a TTL moves it on), parked (resting where nothing moves it), acked, refused back to its
 * publisher (publish-nacked, returned), dropped (why), expired, ended by a delivery limit, or held
 * unacked. A new end (an app that gave up and acked: `discarded`) is one more member of the union
 * below, decided where decideOutcome turns an ack into the message's end.
 */
import type { DropReason } from './events.js';
import { PATH_TAIL, type DropFact, type MessageCopies } from './messageCopies.js';

export type MessageOutcome =
  /**
   * acked by `consumer` at processing attempt `attempt`. `neverEndsFailingAlways`: the ack came
   * only because a fail-first-K worker stopped failing; failing every time, the same message
   * never comes to an end (the design's retry does not end by itself)
   */
  | {
      readonly kind: 'acked';
      readonly consumer: string;
      readonly attempt: number;
      readonly neverEndsFailingAlways?: true;
    }
  /**
   * resting in `queue`: nothing reads it there and no TTL moves it on (a TTL with no onward
   * route drops it later: the text says when). `also`: queues holding copies too;
   * `otherCopies`: copies (fanout, several bindings) that came to another end
   */
  | {
      readonly kind: 'parked';
      readonly queue: string;
      readonly also?: readonly string[];
      readonly otherCopies?: { readonly processed: number; readonly dropped: number };
    }
  | { readonly kind: 'dropped'; readonly why: DropReason; readonly queue?: string; readonly exchange?: string }
  /**
   * the application gave up on it at attempt `attempt` and acked it (`discard`): the broker forgot
   * a message that was never processed. Not `acked`: users read that as done
   */
  | { readonly kind: 'discarded'; readonly consumer: string; readonly attempt: number }
  /** its TTL ran out in `queue`, which has no dead-letter exchange: gone */
  | { readonly kind: 'expired'; readonly queue: string }
  /** a limit ended it: the quorum queue's delivery limit, with no dead-letter exchange to go to */
  | { readonly kind: 'limit'; readonly limit: 'delivery-limit'; readonly queue: string }
  /**
   * still moving when the run stopped at `atMs`: `attempts` so far, in the loop through `cycle`.
   * `waiting`: the run stopped while it rested, for the first time, in a queue whose TTL moves it
   * on at `untilMs` (a wait on its way, not a loop: isMoving says it has not been shown to never end)
   */
  | {
      readonly kind: 'moving';
      readonly attempts: number;
      readonly cycle: readonly string[];
      readonly atMs: number;
      readonly waiting?: { readonly queue: string; readonly untilMs: number };
    }
  /** delivered and held unacked (`hold`) by this consumer: no later `multiple` settled it */
  | { readonly kind: 'held'; readonly consumer: string }
  /** the broker refused its publish (confirm nack: `queue`'s x-overflow reject-publish): the publisher was told, no copy kept */
  | { readonly kind: 'publish-nacked'; readonly queue?: string }
  /** its mandatory publish routed to no queue: returned to the publisher (basic.return 312), no copy kept */
  | { readonly kind: 'returned'; readonly exchange: string; readonly routingKey: string };

export type OutcomeKind = MessageOutcome['kind'];

/** Where the run left things, for reading a message's fate from its copies. */
export interface FateContext {
  /**
   * the run was cut off (horizon or event bound), or the trace is still running: a copy on its
   * way (between queues, at a consumer, waiting where a consumer or a TTL moves it on) is still moving
   */
  readonly truncated: boolean;
  /** the virtual ms the run stopped at (or the trace got to) */
  readonly endTime: number;
  /** a queue where a message keeps moving (a consumer reads it, or a TTL moves it on); a stream never is */
  readonly active?: (queue: string) => boolean;
  /** a queue with a dead-letter route: a message with its own expiration there moves on when it expires */
  readonly deadLettering?: (queue: string) => boolean;
  /** the order queues are named in (the design's); default: the order the copies came */
  readonly rank?: (queue: string) => number;
}

/** The queues of the loop the message is in: from the previous visit of the last queue it entered. */
export function cycleOf(path: readonly string[]): string[] {
  if (path.length === 0) return [];
  // the shortest period the path's end repeats with: three times over where the path is long enough
  // (a loop through `a, b, b` ends `b, b`, which is not a loop of its own)
  for (let k = 1; 2 * k <= path.length && k <= MAX_CYCLE; k++) {
    const blocks = Math.min(3, Math.floor(path.length / k));
    const tail = path.slice(-k);
    let repeats = true;
    for (let b = 2; b <= blocks && repeats; b++)
      repeats = path.slice(-b * k, -(b - 1) * k).every((q, i) => q === tail[i]);
    if (repeats) return tail;
  }
  return [path[path.length - 1]!];
}
/** the ledger keeps PATH_TAIL (3 x MAX_CYCLE) queues of the path: all this looks at */
const MAX_CYCLE = PATH_TAIL / 3;

/** A drop, said as what ended the message: an expiry, a delivery limit, or the drop itself. */
function dropOutcome(d: DropFact): MessageOutcome {
  if (d.ended === 'expired' && d.queue !== undefined) return { kind: 'expired', queue: d.queue };
  if (d.ended === 'limit' && d.queue !== undefined) return { kind: 'limit', limit: 'delivery-limit', queue: d.queue };
  return {
    kind: 'dropped',
    why: d.why,
    ...(d.queue !== undefined ? { queue: d.queue } : {}),
    ...(d.exchange !== undefined ? { exchange: d.exchange } : {}),
  };
}

function movingOutcome(c: MessageCopies, attempts: number, atMs: number, f: FateContext): MessageOutcome {
  const waiting = firstWait(c, f);
  return { kind: 'moving', attempts, cycle: cycleOf(c.path), atMs, ...(waiting ? { waiting } : {}) };
}

/** Resting, for the first time, in the queue it last entered, until its expiry there moves it on. */
function firstWait(c: MessageCopies, f: FateContext): { readonly queue: string; readonly untilMs: number } | undefined {
  const q = c.waitQueue;
  if (c.lastKind !== 'enqueued' || q === undefined || !f.deadLettering?.(q)) return undefined;
  if (c.path.filter((p) => p === q).length > 1) return undefined;
  return { queue: q, untilMs: c.waitUntil };
}

/**
 * THE fate of a message, read from its copies in the ledger (copyLedger.ts). A copy still on its
 * way keeps it moving; else a copy resting in a queue parks it; else a successful processing acked
 * it; else it was refused back to its publisher (publish-nacked, returned), dropped, expired, ended
 * by a limit, or is held unacked by a consumer. Undefined: nothing shows where it is (in transit).
 */
export function decideOutcome(c: MessageCopies, f: FateContext): MessageOutcome | undefined {
  const last = c.lastKind;
  const { consumer: ackedBy, attempts } = c.settledBy;

  const inQueues = c.restingIn(f.rank);
  if (f.truncated) {
    // waiting where a consumer or a TTL moves it on, or between queues (delivered, republished, held by an exchange)
    if (inQueues.some((q) => !c.isStream(q) && (f.active?.(q) || (f.deadLettering?.(q) && c.expiresIn(q)))))
      return movingOutcome(c, attempts, f.endTime, f);
    if (inQueues.length === 0 && last !== undefined && !c.lastEnded) return movingOutcome(c, attempts, f.endTime, f);
  }
  if (inQueues.length > 0) {
    const copies = c.processed > 0 || c.drops > 0;
    return {
      kind: 'parked',
      queue: inQueues[0]!,
      ...(inQueues.length > 1 ? { also: inQueues.slice(1) } : {}),
      ...(copies ? { otherCopies: { processed: c.processed, dropped: c.drops } } : {}),
    };
  }
  // the one place an ack becomes the message's end: the application gave up and acked it (a discard), else acked
  if (last === 'acked' && c.lastAckDiscarded)
    return { kind: 'discarded', consumer: c.lastAcker ?? '', attempt: attempts };
  if (ackedBy !== undefined) return { kind: 'acked', consumer: ackedBy, attempt: attempts };
  // cut off after an ack of no processing (a republish-then-ack whose copy is on its way): still moving;
  // after its drop (or refusal) it is that, however long the run went on for the other messages
  if (f.truncated && last !== 'dropped' && last !== 'publish-nacked' && last !== 'returned')
    return movingOutcome(c, attempts, f.endTime, f);
  if (c.nacked) return { kind: 'publish-nacked', ...(c.nacked.queue !== undefined ? { queue: c.nacked.queue } : {}) };
  if (c.returned) return { kind: 'returned', exchange: c.returned.exchange, routingKey: c.returned.routingKey };
  if (c.drop) return dropOutcome(c.drop);
  const holder = c.holder;
  if (holder !== undefined) return { kind: 'held', consumer: holder };
  // settled by a consumer that reports no processing: the last one that acked it
  if (c.lastAcker !== undefined) return { kind: 'acked', consumer: c.lastAcker, attempt: attempts };
  return undefined;
}

/**
 * Whether the message came to no end within the run and the run shows it never will: still moving,
 * and not merely waiting out a TTL on its way (a wait cut off by the run is not a loop).
 */
export const isMoving = (o: MessageOutcome): boolean => o.kind === 'moving' && o.waiting === undefined;

/** Where a failing message ends, as a template documents it (its tests check it by simulation). */
export type Ending =
  /** `also`: queues that receive a copy as well (fanout / several matching bindings) */
  | { readonly kind: 'queue'; readonly queue: string; readonly also?: readonly string[] }
  /** gone from the broker (dropped, expired, a limit, or refused back to its publisher) */
  | { readonly kind: 'dropped' }
  | { readonly kind: 'acked' }
  /** the application gave up and acked it: gone, never processed */
  | { readonly kind: 'discarded'; readonly consumer: string }
  /** it keeps cycling (the run is cut off) */
  | { readonly kind: 'cycling' }
  /** delivered and held unacked (`hold`) by this consumer: no later `multiple` settled it */
  | { readonly kind: 'held'; readonly consumer: string };

/** The outcome as a template's documented ending (what the templates promise and their tests compare). */
export function endingOf(o: MessageOutcome): Ending {
  switch (o.kind) {
    case 'acked':
      return { kind: 'acked' };
    case 'parked':
      return { kind: 'queue', queue: o.queue, ...(o.also ? { also: o.also } : {}) };
    case 'dropped':
    case 'expired':
    case 'limit':
    case 'publish-nacked':
    case 'returned':
      return { kind: 'dropped' };
    case 'discarded':
      return { kind: 'discarded', consumer: o.consumer };
    case 'moving':
      return { kind: 'cycling' };
    case 'held':
      return { kind: 'held', consumer: o.consumer };
  }
}
