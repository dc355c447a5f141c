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
import type { DropReason, SimEvent, SimEventKind } from './events.js';

/**
 * How a `routed` event relates to the copy it moves: the first hop of a publish or of a dead
 * letter, or a later hop (exchange to exchange, an alternate exchange). A live trace knows it; a
 * run's events in order tell it (undefined: a `routed` right after another is a later hop).
 */
export type RouteStep = 'publish' | 'dead-letter' | 'hop';

/** The message's last drop, said as what ended it: the drop, an expiry or a delivery limit with no dead-letter exchange. */
export interface DropFact {
  readonly ended: 'dropped' | 'expired' | 'limit';
  readonly why: DropReason;
  readonly queue?: string;
  readonly exchange?: string;
}

/** What one consumer did with the message. */
interface ConsumerView {
  /** deliveries it got */
  deliveries: number;
  /** delivered and not settled yet (a `hold` that nothing settled) */
  unsettled: number;
  /** it reports processing (a worker); a script consumer does not */
  processes: boolean;
  /** its last processing's verdict */
  lastOk: boolean;
  /** its last event on the message (delivered, processed, acked, rejected, requeued) */
  last: SimEventKind;
  /** when it last acked it, and last republished it */
  ackT: number;
  republishT: number;
}

/** queues an outcome's loop is looked for in (cycleOf looks back at most 3 x 64 queues) */
export const PATH_TAIL = 192;

const bump = (m: Map<string, number>, k: string, d: number): void => {
  const n = (m.get(k) ?? 0) + d;
  if (n === 0) m.delete(k);
  else m.set(k, n);
};
const positive = (m: ReadonlyMap<string, number> | undefined): boolean => {
  if (m) for (const n of m.values()) if (n > 0) return true;
  return false;
};
const sumPositive = (m: ReadonlyMap<string, number> | undefined): number => {
  let s = 0;
  if (m) for (const n of m.values()) if (n > 0) s += n;
  return s;
};
const NO_COPIES: ReadonlyMap<string, number> = new Map();
/**
 * Drops of a copy that was in the queue they name (a rejected or a ready one). The others never
 * entered it: a dead letter no route took (named by the queue it left: that dead-lettering took it),
 * one a dead-letter cycle or a 3.10 stream refused at its target.
 */
const TAKES_QUEUED_COPY: ReadonlySet<DropReason> = new Set<DropReason>([
  'no-dlx',
  'missing-dlx',
  'overflow',
  'queue-deleted',
  'vanished',
]);

/** One message's copies and what became of them. */
export class MessageCopies {
  /** queue -> copies ready there (signed) */
  private readyIn: Map<string, number> | undefined;
  /** queue -> copies delivered from there and not settled */
  private unackedIn: Map<string, number> | undefined;
  /** queue -> copies rejected there, not yet dead-lettered or dropped */
  private rejectedIn: Map<string, number> | undefined;
  /** exchange -> copies a delayed-message exchange holds */
  private delayedIn: Map<string, number> | undefined;
  /** queue -> its last arrival there carried an expiry */
  private expiring: Map<string, boolean> | undefined;
  private consumers: Map<string, ConsumerView> | undefined;
  /** published copies not routed yet */
  publishes = 0;
  /** dead-lettered copies not routed yet */
  deadLetters = 0;
  /** processing attempts by the work consumers */
  private processedAttempts = 0;
  /** the work consumer whose successful processing acked it (the last one) */
  private ackedByWorker: string | undefined;
  /** copies that came to an end by processing (acked after processing; a script consumer's ack) */
  processed = 0;
  drops = 0;
  drop: DropFact | undefined;
  /** the broker refused a publish of it (confirm nack, x-overflow reject-publish) */
  nacked: { readonly queue?: string } | undefined;
  /** a mandatory publish of it came back unroutable (basic.return) */
  returned: { readonly exchange: string; readonly routingKey: string } | undefined;
  /** the last consumer that acked it */
  lastAcker: string | undefined;
  lastKind: SimEventKind | undefined;
  private lastQueue: string | undefined;
  /** the last queues it was enqueued in, oldest first (at most PATH_TAIL) */
  readonly path: string[] = [];
  lastT = 0;

  constructor(private readonly ledger: CopyLedger) {}

  // ------------------------------------------------------------------ reading

  /** copies ready in each queue (positive counts; debts aside) */
  get ready(): ReadonlyMap<string, number> {
    return this.readyIn ?? NO_COPIES;
  }
  /** queues holding a copy ready, in the order given (default: the order the copies came) */
  restingIn(rank?: (queue: string) => number): string[] {
    const qs: string[] = [];
    if (this.readyIn) for (const [q, n] of this.readyIn) if (n > 0) qs.push(q);
    return rank && qs.length > 1 ? qs.sort((a, b) => rank(a) - rank(b)) : qs;
  }
  get unacked(): number {
    return sumPositive(this.unackedIn);
  }
  /** rejected copies not yet dead-lettered or dropped */
  get pending(): number {
    return sumPositive(this.rejectedIn);
  }
  /** copies between queues: announced and not routed yet, or held by a delayed-message exchange */
  get inTransit(): boolean {
    return this.publishes > 0 || this.deadLetters > 0 || positive(this.delayedIn);
  }
  /** copies ready in `queue` (signed: a debt is below 0) */
  readyAt(queue: string): number {
    return this.readyIn?.get(queue) ?? 0;
  }
  /** copies rejected in `queue` and not yet dead-lettered or dropped (signed) */
  rejectedAt(queue: string): number {
    return this.rejectedIn?.get(queue) ?? 0;
  }
  /**
   * Read from events alone, a copy of it is still on its way: between queues, rejected and not
   * yet dead-lettered, at a consumer while the run goes on, or ready where a consumer or a TTL
   * moves it on (`active`; a stream never is). What decideOutcome is told as `truncated` then.
   */
  onItsWay(running: boolean, active: (queue: string) => boolean): boolean {
    if (this.inTransit || this.pending > 0 || (running && this.unacked > 0)) return true;
    if (this.readyIn) for (const [q, n] of this.readyIn) if (n > 0 && !this.isStream(q) && active(q)) return true;
    return false;
  }
  /** a copy of it came to an end: acked, dropped, refused back to its publisher */
  get ended(): boolean {
    return (
      this.lastAcker !== undefined ||
      this.drop !== undefined ||
      this.nacked !== undefined ||
      this.returned !== undefined
    );
  }
  /** its last arrival in `queue` carried an expiry (its own, or the queue's TTL) */
  expiresIn(queue: string): boolean {
    return this.expiring?.get(queue) === true;
  }
  isStream(queue: string): boolean {
    return this.ledger.isStream(queue);
  }
  /** nothing of it is anywhere, nor owed (no debt left): only its fate is left to keep */
  get quiet(): boolean {
    return (
      (this.readyIn?.size ?? 0) === 0 &&
      (this.unackedIn?.size ?? 0) === 0 &&
      (this.rejectedIn?.size ?? 0) === 0 &&
      (this.delayedIn?.size ?? 0) === 0 &&
      this.publishes === 0 &&
      this.deadLetters === 0
    );
  }
  /** its last event ended a copy: acked, dropped, refused back to the publisher */
  get lastEnded(): boolean {
    const k = this.lastKind;
    return k === 'acked' || k === 'dropped' || k === 'publish-nacked' || k === 'returned';
  }
  /** quiet, and its last event was an end: its fate is final (nothing of it can move again) */
  get settled(): boolean {
    return this.quiet && this.lastEnded;
  }
  /** a consumer holding it unacked (the first that got it) */
  get holder(): string | undefined {
    if (this.consumers) for (const [id, v] of this.consumers) if (v.unsettled > 0) return id;
    return undefined;
  }

  /**
   * Who acked it and after how many attempts. Processing attempts are the work consumers'; when
   * none reported processing (script consumers), the one that got it most: its deliveries are
   * the attempts, and its ack settled it when its last word was an ack with no republish after.
   */
  get settledBy(): { readonly consumer: string | undefined; readonly attempts: number } {
    if (this.processedAttempts > 0 || !this.consumers)
      return { consumer: this.ackedByWorker, attempts: this.processedAttempts };
    let best: [string, ConsumerView] | undefined;
    for (const entry of this.consumers) {
      const v = entry[1];
      if (v.deliveries > 0 && this.ledger.isWork(entry[0]) && (!best || v.deliveries > best[1].deliveries))
        best = entry;
    }
    if (!best) return { consumer: this.ackedByWorker, attempts: 0 };
    const [id, v] = best;
    return { consumer: v.last === 'acked' && v.republishT < v.ackT ? id : undefined, attempts: v.deliveries };
  }

  // ------------------------------------------------------------------ the reducer

  private view(consumer: string): ConsumerView {
    this.consumers ??= new Map();
    let v = this.consumers.get(consumer);
    if (!v)
      this.consumers.set(
        consumer,
        (v = {
          deliveries: 0,
          unsettled: 0,
          processes: false,
          lastOk: false,
          last: 'delivered',
          ackT: -Infinity,
          republishT: -Infinity,
        }),
      );
    return v;
  }

  /** one event of this message (`step`: how a `routed` event relates to its copy, when known) */
  apply(e: SimEvent, step?: RouteStep): void {
    switch (e.kind) {
      case 'published':
        this.publishes += 1;
        if (e.origin.kind === 'consumer') this.view(e.origin.id).republishT = e.t;
        break;
      case 'delayed':
        bump((this.delayedIn ??= new Map()), e.exchange, 1);
        break;
      case 'routed':
        this.routed(e.exchange, step ?? (this.lastKind === 'routed' ? 'hop' : undefined));
        break;
      case 'returned':
        this.returned = { exchange: e.exchange, routingKey: e.routingKey };
        break;
      case 'publish-nacked':
        // that publish routes nowhere now
        this.publishes = Math.max(0, this.publishes - 1);
        this.nacked = e.queue ? { queue: e.queue } : {};
        break;
      case 'enqueued':
        this.unreportedRoute();
        bump((this.readyIn ??= new Map()), e.queue, 1);
        (this.expiring ??= new Map()).set(e.queue, e.expiresAt !== undefined);
        this.path.push(e.queue);
        // keep the tail only (amortised O(1))
        if (this.path.length > 2 * PATH_TAIL) this.path.splice(0, this.path.length - PATH_TAIL);
        break;
      case 'delivered':
        this.delivered(e);
        break;
      case 'processed': {
        const v = this.view(e.consumer);
        v.processes = true;
        v.lastOk = e.ok;
        v.last = 'processed';
        if (this.ledger.isWork(e.consumer)) this.processedAttempts += 1;
        break;
      }
      case 'acked':
        this.acked(e.queue, e.consumer, e.t);
        break;
      case 'rejected':
        this.settleDelivery(e.queue, e.consumer, 'rejected');
        if (!this.isStream(e.queue)) bump((this.rejectedIn ??= new Map()), e.queue, 1);
        break;
      case 'requeued':
        this.settleDelivery(e.queue, e.consumer, 'requeued');
        if (!this.isStream(e.queue)) bump((this.readyIn ??= new Map()), e.queue, 1);
        break;
      case 'dead-lettered':
        // a rejected copy, else (expired, over a limit, a delivery limit) a ready one
        if ((this.rejectedIn?.get(e.queue) ?? 0) > 0 || e.reason === 'rejected')
          bump((this.rejectedIn ??= new Map()), e.queue, -1);
        else bump((this.readyIn ??= new Map()), e.queue, -1);
        this.deadLetters += 1;
        break;
      case 'dropped':
        this.dropped(e);
        break;
      default:
        // expired (the dead-lettering or the drop that follows takes the copy), unroutable, depth
        break;
    }
    this.lastKind = e.kind;
    this.lastQueue = 'queue' in e ? e.queue : undefined;
    this.lastT = Math.max(this.lastT, e.t);
  }

  private routed(exchange: string, step: RouteStep | undefined): void {
    if (step === 'hop') return;
    if (step === 'publish') this.publishes = Math.max(0, this.publishes - 1);
    else if (step === 'dead-letter') this.deadLetters = Math.max(0, this.deadLetters - 1);
    // read in order: the copy announced last, else one a delayed-message exchange releases
    else if (this.deadLetters > 0 && (this.lastKind === 'dead-lettered' || this.publishes === 0)) this.deadLetters -= 1;
    else if (this.publishes > 0) this.publishes -= 1;
    else if ((this.delayedIn?.get(exchange) ?? 0) > 0) bump(this.delayedIn!, exchange, -1);
  }

  /**
   * An enqueue or a drop right after a publish or a dead-lettering: its routing was not reported
   * (events without `routed`, or a publish to an internal or a missing exchange): that copy is routed.
   */
  private unreportedRoute(): void {
    if (this.lastKind === 'published' || this.lastKind === 'dead-lettered') this.routed('', undefined);
  }

  private delivered(e: Extract<SimEvent, { kind: 'delivered' }>): void {
    const q = e.queue;
    // a stream delivers every message with its offset (the broker adds the header): read by offset, kept
    if (e.headers['x-stream-offset'] !== undefined) this.ledger.markStream(q);
    if (!this.isStream(q)) {
      this.readyIn ??= new Map();
      // A reject takes the copy out of its queue, so the broker hands it out again from there
      // (redelivered) without a new copy arriving only if the reject never reached it: sent on a
      // channel that died with a broker restart. That reject dead-letters nothing; the copy is back.
      if (e.redelivered && (this.readyIn.get(q) ?? 0) <= 0 && (this.rejectedIn?.get(q) ?? 0) > 0) {
        bump(this.rejectedIn!, q, -1);
        bump(this.readyIn, q, 1);
      }
      bump(this.readyIn, q, -1);
    }
    bump((this.unackedIn ??= new Map()), q, 1);
    const v = this.view(e.consumer);
    if (this.ledger.isWork(e.consumer)) v.deliveries += 1;
    v.unsettled += 1;
    v.last = 'delivered';
  }

  private settleDelivery(queue: string, consumer: string, how: 'acked' | 'rejected' | 'requeued'): ConsumerView {
    bump((this.unackedIn ??= new Map()), queue, -1);
    const v = this.view(consumer);
    v.unsettled -= 1;
    v.last = how;
    return v;
  }

  private acked(queue: string, consumer: string, t: number): void {
    const v = this.settleDelivery(queue, consumer, 'acked');
    v.ackT = t;
    this.lastAcker = consumer;
    // acked after its own successful processing (a failed one acks a republished copy's original)
    if (this.ledger.isWork(consumer) && v.lastOk) {
      this.ackedByWorker = consumer;
      this.processed += 1;
    }
    // a script consumer reports no processing: its ack (not a republish-then-ack) settles that copy
    if (!v.processes && v.republishT !== t) this.processed += 1;
  }

  private dropped(e: Extract<SimEvent, { kind: 'dropped' }>): void {
    const q = e.queue;
    if (q !== undefined && TAKES_QUEUED_COPY.has(e.why)) {
      if ((this.rejectedIn?.get(q) ?? 0) > 0) bump(this.rejectedIn!, q, -1);
      else if ((this.readyIn?.get(q) ?? 0) > 0) bump(this.readyIn!, q, -1);
    }
    this.unreportedRoute();
    this.drops += 1;
    // what it followed tells what ended it: its TTL ran out, or a quorum queue returned it once
    // more and then dead-lettered it for its delivery limit, with no dead-letter exchange either way
    const before = q !== undefined && e.why === 'no-dlx' && this.lastQueue === q ? this.lastKind : undefined;
    this.drop = {
      ended: before === 'expired' ? 'expired' : before === 'requeued' ? 'limit' : 'dropped',
      why: e.why,
      ...(q !== undefined ? { queue: q } : {}),
      ...(e.exchange !== undefined ? { exchange: e.exchange } : {}),
    };
  }
}

export interface LedgerOptions {
  /** queues read by offset (streams); a delivery with `x-stream-offset` marks one too */
  readonly streams?: Iterable<string>;
  /** consumers whose processing counts as an attempt (default: every consumer) */
  readonly workConsumers?: Iterable<string>;
}

/** Every message's copies, by message id. */
export class CopyLedger {
  private readonly byMsg = new Map<string, MessageCopies>();
  private readonly streams: Set<string>;
  private readonly work: Set<string> | undefined;

  constructor(opts: LedgerOptions = {}) {
    this.streams = new Set(opts.streams ?? []);
    this.work = opts.workConsumers ? new Set(opts.workConsumers) : undefined;
  }

  isStream(queue: string): boolean {
    return this.streams.has(queue);
  }
  markStream(queue: string): void {
    this.streams.add(queue);
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
    if (!c) this.byMsg.set(msgId, (c = new MessageCopies(this)));
    return c;
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
