/**
 * What became of one message in a run: THE outcome that every place states (timeline lanes,
 * message detail, budget, compare, simulate, lint's retry rules, the upgrade check, template
 * explanations). Decided here once, from the message's events and where the run left it.
 */
import type { DropReason, SimEvent } from './events.js';
import type { Ending } from '../templates/types.js';

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
  | { readonly kind: 'held'; readonly consumer: string };

export type OutcomeKind = MessageOutcome['kind'];

/** What the trace read from the message's events, and where the run left it. */
export interface OutcomeFacts {
  readonly events: readonly SimEvent[];
  /** queues the message (a copy of it) sits in when the run ended */
  readonly inQueues: readonly string[];
  /** queues where a message keeps moving (a consumer reads it, or a TTL moves it on) */
  readonly activeQueues?: ReadonlySet<string>;
  /** queues with a dead-letter route: a message with its own expiration there moves on when it expires */
  readonly deadLettering?: ReadonlySet<string>;
  /** the run was cut off (horizon or event bound) */
  readonly truncated: boolean;
  /** the virtual ms the run stopped at */
  readonly endTime: number;
  /** the work consumer whose successful processing acked it (undefined: none did) */
  readonly ackedBy: string | undefined;
  readonly attempts: number;
  /** a consumer holding it unacked */
  readonly holder: string | undefined;
  /** every queue it was enqueued in, in order */
  readonly path: readonly string[];
  readonly otherCopies: { readonly processed: number; readonly dropped: number };
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
const MAX_CYCLE = 64;

/** A drop, said as what ended the message: an expiry, a delivery limit, or the drop itself. */
function dropOutcome(events: readonly SimEvent[]): MessageOutcome {
  const i = events.map((e) => e.kind).lastIndexOf('dropped');
  const d = events[i] as Extract<SimEvent, { kind: 'dropped' }>;
  const before = events[i - 1];
  if (d.why === 'no-dlx' && d.queue !== undefined && before?.kind === 'expired' && before.queue === d.queue)
    return { kind: 'expired', queue: d.queue };
  // a quorum queue returns it once more (requeued) and then dead-letters it for delivery_limit
  if (d.why === 'no-dlx' && d.queue !== undefined && before?.kind === 'requeued' && before.queue === d.queue)
    return { kind: 'limit', limit: 'delivery-limit', queue: d.queue };
  return {
    kind: 'dropped',
    why: d.why,
    ...(d.queue !== undefined ? { queue: d.queue } : {}),
    ...(d.exchange !== undefined ? { exchange: d.exchange } : {}),
  };
}

/** its last arrival in `q` carried an expiry (a per-message TTL, or the queue's) */
function expiresIn(events: readonly SimEvent[], q: string): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === 'enqueued' && e.queue === q) return e.expiresAt !== undefined;
  }
  return false;
}

/** Resting, for the first time, in the queue it last entered, until its expiry there moves it on. */
function firstWait(f: OutcomeFacts): { readonly queue: string; readonly untilMs: number } | undefined {
  const last = f.events[f.events.length - 1];
  if (last?.kind !== 'enqueued' || last.expiresAt === undefined || !f.deadLettering?.has(last.queue)) return undefined;
  if (f.path.filter((q) => q === last.queue).length > 1) return undefined;
  return { queue: last.queue, untilMs: last.expiresAt };
}

export function decideOutcome(f: OutcomeFacts): MessageOutcome {
  const last = f.events[f.events.length - 1];
  const waiting = f.truncated ? firstWait(f) : undefined;
  const moving: MessageOutcome = {
    kind: 'moving',
    attempts: f.attempts,
    cycle: cycleOf(f.path),
    atMs: f.endTime,
    ...(waiting ? { waiting } : {}),
  };
  if (f.truncated) {
    // waiting where a consumer or a TTL moves it on, or between queues (delivered, republished, held by an exchange)
    if (f.inQueues.some((q) => f.activeQueues?.has(q) || (f.deadLettering?.has(q) && expiresIn(f.events, q))))
      return moving;
    if (f.inQueues.length === 0 && last !== undefined && last.kind !== 'acked' && last.kind !== 'dropped')
      return moving;
  }
  if (f.inQueues.length > 0) {
    const copies = f.otherCopies.processed > 0 || f.otherCopies.dropped > 0;
    return {
      kind: 'parked',
      queue: f.inQueues[0]!,
      ...(f.inQueues.length > 1 ? { also: f.inQueues.slice(1) } : {}),
      ...(copies ? { otherCopies: f.otherCopies } : {}),
    };
  }
  if (f.ackedBy !== undefined) return { kind: 'acked', consumer: f.ackedBy, attempt: f.attempts };
  // cut off after an ack of no processing (a republish-then-ack whose copy is on its way): still moving;
  // after its drop it is dropped, however long the run went on for the other messages
  if (f.truncated && last?.kind !== 'dropped') return moving;
  if (f.events.some((e) => e.kind === 'dropped')) return dropOutcome(f.events);
  if (f.holder !== undefined) return { kind: 'held', consumer: f.holder };
  // settled by a consumer that reports no processing: the last one that acked it
  const acker = [...f.events].reverse().find((e) => e.kind === 'acked');
  return { kind: 'acked', consumer: acker && 'consumer' in acker ? acker.consumer : '', attempt: f.attempts };
}

/**
 * Whether the message came to no end within the run and the run shows it never will: still moving,
 * and not merely waiting out a TTL on its way (a wait cut off by the run is not a loop).
 */
export const isMoving = (o: MessageOutcome): boolean => o.kind === 'moving' && o.waiting === undefined;

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
      return { kind: 'dropped' };
    case 'moving':
      return { kind: 'cycling' };
    case 'held':
      return { kind: 'held', consumer: o.consumer };
  }
}
