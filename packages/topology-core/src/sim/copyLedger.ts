/**
 * The copy ledger: where each message's copies are, worked out from its events in ONE place for
 * every reader of events (the simulator's outcomes in messageTrace.ts and eventOutcomes.ts, a live
 * trace's accounting, the web's playback, the rehearsal's tally). Its fate is then read from the
 * ledger by decideOutcome (messageOutcome.ts), in the MessageOutcome vocabulary.
 *
 * What a copy can be: announced (published or dead-lettered, not routed yet), held by a
 * delayed-message exchange, ready in a queue, unacked at a consumer, rejected (not yet
 * dead-lettered or dropped); or it came to an end: acked, dropped (why), refused back to its
 * publisher (publish-nacked, returned). A stream keeps its copy when a reader gets it (read by
 * offset: the ack only frees prefetch), so a delivery from a stream takes nothing out of it.
 *
 * A live trace's events can come out of order (its accounting sends an event on after its longest
 * hold even when what it follows was not seen): the counts are signed, so an event seen before its
 * cause leaves a debt that the late cause pays back. A drop takes only a copy that is there (a
 * refused publish or a dead letter a 3.10 stream drops never entered the queue).
 *
 * O(1) per event. `foldEvent` updates the ledger in place and returns it: a ledger belongs to one fold.
 */
import type { AmqpTable } from '../model/definitions.js';
import type { SimEvent } from './events.js';
import { MessageCopies, type LedgerRules, type RouteStep } from './messageCopies.js';

export interface LedgerOptions {
  /** queues read by offset (streams); a delivery with `x-stream-offset` marks one too */
  readonly streams?: Iterable<string>;
  /** consumers whose processing counts as an attempt (default: every consumer) */
  readonly workConsumers?: Iterable<string>;
  /**
   * keep each message's last queues, for the loop a still-moving message is in (default true);
   * a reader that counts outcomes by kind only (the rehearsal) saves the memory
   */
  readonly paths?: boolean;
}

/** entries kept for reuse: a burst's worth */
const MAX_SPARE = 4096;

/** Every message's copies, by message id. */
export class CopyLedger implements LedgerRules {
  private readonly byMsg = new Map<string, MessageCopies>();
  private readonly streams: Set<string>;
  private readonly work: Set<string> | undefined;
  readonly keepsPaths: boolean;
  private readonly spare: MessageCopies[] = [];
  /** queue -> a delivery from it leaves the message there (a stream) */
  private readonly deliveredFrom = new Map<string, boolean>();

  constructor(opts: LedgerOptions = {}) {
    this.streams = new Set(opts.streams ?? []);
    this.work = opts.workConsumers ? new Set(opts.workConsumers) : undefined;
    this.keepsPaths = opts.paths !== false;
  }

  isStream(queue: string): boolean {
    return this.streams.has(queue);
  }
  /**
   * Whether a delivery from `queue` leaves the message there: a stream's does. A stream delivers
   * every message with its offset (the broker adds `x-stream-offset`): the first delivery from a
   * queue the ledger was not told about says which it is.
   */
  deliversFromStream(queue: string, headers: AmqpTable): boolean {
    let stream = this.deliveredFrom.get(queue);
    if (stream === undefined) {
      stream = this.streams.has(queue) || headers['x-stream-offset'] !== undefined;
      if (stream) this.streams.add(queue);
      this.deliveredFrom.set(queue, stream);
    }
    return stream;
  }
  isWork(consumer: string): boolean {
    return this.work === undefined || this.work.has(consumer);
  }

  /** one event (events about no message, depth samples, change nothing); returns the message's copies */
  apply(e: SimEvent, step?: RouteStep): MessageCopies | undefined {
    if (e.msgId === '' || e.kind === 'depth') return undefined;
    const c = this.entry(e.msgId);
    c.apply(e, step);
    return c;
  }

  get(msgId: string): MessageCopies | undefined {
    return this.byMsg.get(msgId);
  }
  /** the message's copies, a new (empty) entry when it has none yet */
  entry(msgId: string): MessageCopies {
    let c = this.byMsg.get(msgId);
    if (!c) this.byMsg.set(msgId, (c = this.fresh()));
    return c;
  }
  /** an entry under these rules that the ledger does not keep (a reader that keys its messages itself) */
  fresh(): MessageCopies {
    return this.spare.pop() ?? new MessageCopies(this);
  }
  /** a fresh() entry whose message is done: reused by the next fresh() (allocation-free for millions of messages) */
  release(copies: MessageCopies): void {
    copies.reset();
    if (this.spare.length < MAX_SPARE) this.spare.push(copies);
  }
  /** forget a message (its fate kept elsewhere, or no longer wanted) */
  delete(msgId: string): void {
    this.byMsg.delete(msgId);
  }
  clear(): void {
    this.byMsg.clear();
  }
  get size(): number {
    return this.byMsg.size;
  }
  entries(): IterableIterator<[string, MessageCopies]> {
    return this.byMsg.entries();
  }
}

/** The reducer: the ledger after one more event (the same ledger, updated in place). */
export function foldEvent(ledger: CopyLedger, e: SimEvent, step?: RouteStep): CopyLedger {
  ledger.apply(e, step);
  return ledger;
}

/** A ledger of a whole event list, in order. */
export function ledgerOf(events: readonly SimEvent[], opts: LedgerOptions = {}): CopyLedger {
  const ledger = new CopyLedger(opts);
  for (const e of events) ledger.apply(e);
  return ledger;
}
