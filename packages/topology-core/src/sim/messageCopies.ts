/**
 * One message's copies in the copy ledger (copyLedger.ts): where they are and what became of
 * them, updated event by event. The rules of what each event does to a copy are here, once.
 */
import type { AmqpTable } from '../model/definitions.js';
import type { DropReason, SimEvent, SimEventKind } from './events.js';

/** What an entry asks of its ledger (copyLedger.ts): the rules every entry of it shares. */
export interface LedgerRules {
  isStream(queue: string): boolean;
  /** whether a delivery from `queue` leaves the message there (a stream's does) */
  deliversFromStream(queue: string, headers: AmqpTable): boolean;
  /** a consumer whose processing counts as an attempt */
  isWork(consumer: string): boolean;
  /** keep each message's last queues (for the loop a still-moving message is in) */
  readonly keepsPaths: boolean;
}

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
  id: string;
  /** a work consumer: its processing counts as an attempt */
  work: boolean;
  /** deliveries it got (a work consumer's) */
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

/**
 * A queue's slot: the message's copies there, signed counts at `slot * SLOT + field`: ready,
 * unacked (delivered from there, not settled), rejected (not yet dead-lettered or dropped), and
 * whether its last arrival there carried an expiry (its own, or the queue's TTL: 1).
 */
const READY = 0;
const UNACKED = 1;
const REJECTED = 2;
const EXPIRING = 3;
const SLOT = 4;
type SlotCount = typeof READY | typeof UNACKED | typeof REJECTED;

/** queues an outcome's loop is looked for in (cycleOf looks back at most 3 x 64 queues) */
export const PATH_TAIL = 192;

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

/**
 * One message's copies and what became of them. A message is in few queues at once and seen by
 * few consumers: each is a slot in a short list (a scan of a handful), and the counts that are
 * not zero are counted as they change, so whether anything of it is left is O(1).
 */
export class MessageCopies {
  /** the queues it has been in, and their slots' counts (flat: few queues, no object per queue) */
  private readonly queues: string[] = [];
  private readonly counts: number[] = [];
  /** slots in use (a reused entry keeps its arrays: no allocation per message) */
  private slotsUsed = 0;
  private readonly consumers: ConsumerView[] = [];
  private viewsUsed = 0;
  /** exchange -> copies a delayed-message exchange holds (rare) */
  private delayedIn: Map<string, number> | undefined;
  /** slot counts and delayed holds that are not zero (debts included) */
  private open = 0;
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
  /** the last consumer that acked it, and whether that ack was the application giving up (a discard) */
  lastAcker: string | undefined;
  lastAckDiscarded = false;
  lastKind: SimEventKind | undefined;
  /** the queue of its last arrival with an expiry, and when that expiry moves it on (the wait a run can cut) */
  waitQueue: string | undefined;
  waitUntil = 0;
  private lastQueue: string | undefined;
  private pathTail: string[] | undefined;
  lastT = 0;

  constructor(private readonly ledger: LedgerRules) {}

  /** as new, for another message (a reader that goes through millions reuses entries: CopyLedger.release); every field above */
  reset(): void {
    this.slotsUsed = 0;
    this.viewsUsed = 0;
    this.delayedIn = undefined;
    this.open = 0;
    this.publishes = 0;
    this.deadLetters = 0;
    this.processedAttempts = 0;
    this.ackedByWorker = undefined;
    this.processed = 0;
    this.drops = 0;
    this.drop = undefined;
    this.nacked = undefined;
    this.returned = undefined;
    this.lastAcker = undefined;
    this.lastAckDiscarded = false;
    this.lastKind = undefined;
    this.waitQueue = undefined;
    this.lastQueue = undefined;
    if (this.pathTail) this.pathTail.length = 0;
    this.lastT = 0;
  }

  // ------------------------------------------------------------------ reading

  /** the queue's slot, -1 when it was never there */
  private find(queue: string): number {
    const qs = this.queues;
    for (let i = 0; i < this.slotsUsed; i++) if (qs[i] === queue) return i;
    return -1;
  }
  private countAt(queue: string, count: SlotCount | typeof EXPIRING): number {
    const i = this.find(queue);
    return i < 0 ? 0 : this.counts[i * SLOT + count]!;
  }
  private total(count: SlotCount): number {
    let n = 0;
    const end = this.slotsUsed * SLOT;
    for (let i = count; i < end; i += SLOT) if (this.counts[i]! > 0) n += this.counts[i]!;
    return n;
  }

  /** the last queues it was enqueued in, oldest first (up to 2 x PATH_TAIL; none when the ledger keeps no paths) */
  get path(): readonly string[] {
    return this.pathTail ?? [];
  }
  /** copies ready in each queue (positive counts; debts aside) */
  get ready(): ReadonlyMap<string, number> {
    const m = new Map<string, number>();
    for (let i = 0; i < this.slotsUsed; i++) {
      const n = this.counts[i * SLOT + READY]!;
      if (n > 0) m.set(this.queues[i]!, n);
    }
    return m;
  }
  /** queues holding a copy ready, in the order given (default: the order it first came to each) */
  restingIn(rank?: (queue: string) => number): string[] {
    const qs: string[] = [];
    for (let i = 0; i < this.slotsUsed; i++) if (this.counts[i * SLOT + READY]! > 0) qs.push(this.queues[i]!);
    return rank && qs.length > 1 ? qs.sort((a, b) => rank(a) - rank(b)) : qs;
  }
  get unacked(): number {
    return this.total(UNACKED);
  }
  /** rejected copies not yet dead-lettered or dropped */
  get pending(): number {
    return this.total(REJECTED);
  }
  /** copies between queues: announced and not routed yet, or held by a delayed-message exchange */
  get inTransit(): boolean {
    if (this.publishes > 0 || this.deadLetters > 0) return true;
    if (this.delayedIn) for (const n of this.delayedIn.values()) if (n > 0) return true;
    return false;
  }
  /** copies in `queue` as the broker counts its messages (ready + unacked; a stream's delivered copy is its ready one) */
  heldIn(queue: string): number {
    const i = this.find(queue);
    if (i < 0) return 0;
    const ready = Math.max(0, this.counts[i * SLOT + READY]!);
    return this.isStream(queue) ? ready : ready + Math.max(0, this.counts[i * SLOT + UNACKED]!);
  }
  /** copies ready in `queue` (signed: a debt is below 0) */
  readyAt(queue: string): number {
    return this.countAt(queue, READY);
  }
  /** copies rejected in `queue` and not yet dead-lettered or dropped (signed) */
  rejectedAt(queue: string): number {
    return this.countAt(queue, REJECTED);
  }
  /**
   * Read from events alone, a copy of it is still on its way: between queues, rejected and not
   * yet dead-lettered, at a consumer while the run goes on, or ready where a consumer or a TTL
   * moves it on (`active`; a stream never is). What decideOutcome is told as `truncated` then.
   */
  onItsWay(running: boolean, active: (queue: string) => boolean): boolean {
    if (this.inTransit || this.pending > 0 || (running && this.unacked > 0)) return true;
    for (let i = 0; i < this.slotsUsed; i++) {
      const q = this.queues[i]!;
      if (this.counts[i * SLOT + READY]! > 0 && !this.isStream(q) && active(q)) return true;
    }
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
    return this.countAt(queue, EXPIRING) === 1;
  }
  isStream(queue: string): boolean {
    return this.ledger.isStream(queue);
  }
  /** nothing of it is anywhere, nor owed (no debt left): only its fate is left to keep */
  get quiet(): boolean {
    return this.open === 0 && this.publishes === 0 && this.deadLetters === 0;
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
    for (let i = 0; i < this.viewsUsed; i++) if (this.consumers[i]!.unsettled > 0) return this.consumers[i]!.id;
    return undefined;
  }

  /**
   * Who acked it and after how many attempts. Processing attempts are the work consumers'; when
   * none reported processing (script consumers), the one that got it most: its deliveries are
   * the attempts, and its ack settled it when its last word was an ack with no republish after.
   */
  get settledBy(): { readonly consumer: string | undefined; readonly attempts: number } {
    let best: ConsumerView | undefined;
    if (this.processedAttempts === 0)
      for (let i = 0; i < this.viewsUsed; i++) {
        const v = this.consumers[i]!;
        if (v.deliveries > 0 && v.work && (!best || v.deliveries > best.deliveries)) best = v;
      }
    if (!best) return { consumer: this.ackedByWorker, attempts: this.processedAttempts };
    return {
      consumer: best.last === 'acked' && best.republishT < best.ackT ? best.id : undefined,
      attempts: best.deliveries,
    };
  }

  // ------------------------------------------------------------------ the reducer

  /** the queue's slot, made on its first use */
  private slot(queue: string): number {
    const i = this.find(queue);
    if (i >= 0) return i;
    const n = this.slotsUsed++;
    this.queues[n] = queue;
    const k = n * SLOT;
    this.counts[k + READY] = this.counts[k + UNACKED] = this.counts[k + REJECTED] = this.counts[k + EXPIRING] = 0;
    return n;
  }
  /** change one count of a queue's copies, keeping `open` (the counts not at zero); returns the count's index */
  private bump(queue: string, count: SlotCount, d: number): number {
    const k = this.slot(queue) * SLOT + count;
    this.add(k, d);
    return k;
  }
  /** change the count at index `k` of the slots */
  private add(k: number, d: number): void {
    const before = this.counts[k]!;
    const after = before + d;
    this.counts[k] = after;
    if (before === 0) this.open += 1;
    if (after === 0) this.open -= 1;
  }
  private bumpDelayed(exchange: string, d: number): void {
    const m = (this.delayedIn ??= new Map());
    const before = m.get(exchange) ?? 0;
    const after = before + d;
    if (after === 0) m.delete(exchange);
    else m.set(exchange, after);
    if (before === 0) this.open += 1;
    if (after === 0) this.open -= 1;
  }

  private view(consumer: string): ConsumerView {
    const views = this.consumers;
    for (let i = 0; i < this.viewsUsed; i++) if (views[i]!.id === consumer) return views[i]!;
    // a reused entry reuses its views too
    const v = views[this.viewsUsed] ?? {
      id: '',
      work: false,
      deliveries: 0,
      unsettled: 0,
      processes: false,
      lastOk: false,
      last: 'delivered',
      ackT: -Infinity,
      republishT: -Infinity,
    };
    views[this.viewsUsed++] = v;
    v.id = consumer;
    v.work = this.ledger.isWork(consumer);
    v.deliveries = v.unsettled = 0;
    v.processes = v.lastOk = false;
    v.last = 'delivered';
    v.ackT = v.republishT = -Infinity;
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
        this.bumpDelayed(e.exchange, 1);
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
        this.counts[this.bump(e.queue, READY, 1) + EXPIRING - READY] = e.expiresAt !== undefined ? 1 : 0;
        this.waitQueue = e.expiresAt !== undefined ? e.queue : undefined;
        this.waitUntil = e.expiresAt ?? 0;
        if (this.ledger.keepsPaths) {
          const path = (this.pathTail ??= []);
          path.push(e.queue);
          // keep the tail only (amortised O(1))
          if (path.length > 2 * PATH_TAIL) path.splice(0, path.length - PATH_TAIL);
        }
        break;
      case 'delivered':
        this.delivered(e);
        break;
      case 'processed': {
        const v = this.view(e.consumer);
        v.processes = true;
        v.lastOk = e.ok;
        v.last = 'processed';
        if (v.work) this.processedAttempts += 1;
        break;
      }
      case 'acked':
        this.lastAckDiscarded = e.discarded === true;
        this.acked(e.queue, e.consumer, e.t);
        break;
      case 'rejected':
        this.settleDelivery(e.queue, e.consumer, 'rejected');
        if (!this.isStream(e.queue)) this.bump(e.queue, REJECTED, 1);
        break;
      case 'requeued':
        this.settleDelivery(e.queue, e.consumer, 'requeued');
        if (!this.isStream(e.queue)) this.bump(e.queue, READY, 1);
        break;
      case 'dead-lettered':
        // a rejected copy, else (expired, over a limit, a delivery limit) a ready one; over a length
        // limit with none there, the queue refused it at the door (reject-publish-dlx): it never entered
        if (e.reason === 'rejected' || this.rejectedAt(e.queue) > 0) this.bump(e.queue, REJECTED, -1);
        else if (e.reason !== 'maxlen' || this.readyAt(e.queue) > 0) this.bump(e.queue, READY, -1);
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
    // what a drop that follows is read by (an expiry or a return to a quorum queue there)
    this.lastQueue = e.kind === 'expired' || e.kind === 'requeued' ? e.queue : undefined;
    this.lastT = Math.max(this.lastT, e.t);
  }

  private routed(exchange: string, step: RouteStep | undefined): void {
    if (step === 'hop') return;
    if (step === 'publish') this.publishes = Math.max(0, this.publishes - 1);
    else if (step === 'dead-letter') this.deadLetters = Math.max(0, this.deadLetters - 1);
    // read in order: the copy announced last, else one a delayed-message exchange releases
    else if (this.deadLetters > 0 && (this.lastKind === 'dead-lettered' || this.publishes === 0)) this.deadLetters -= 1;
    else if (this.publishes > 0) this.publishes -= 1;
    else if ((this.delayedIn?.get(exchange) ?? 0) > 0) this.bumpDelayed(exchange, -1);
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
    const at = this.slot(q) * SLOT;
    // a stream delivers every message with its offset (the broker adds the header): read by offset, kept
    if (!this.ledger.deliversFromStream(q, e.headers)) {
      // A reject takes the copy out of its queue, so the broker hands it out again from there
      // (redelivered) without a new copy arriving only if the reject never reached it: sent on a
      // channel that died with a broker restart. That reject dead-letters nothing; the copy is back.
      if (e.redelivered && this.counts[at + READY]! <= 0 && this.counts[at + REJECTED]! > 0) {
        this.add(at + REJECTED, -1);
        this.add(at + READY, 1);
      }
      this.add(at + READY, -1);
    }
    this.add(at + UNACKED, 1);
    const v = this.view(e.consumer);
    if (v.work) v.deliveries += 1;
    v.unsettled += 1;
    v.last = 'delivered';
  }

  private settleDelivery(queue: string, consumer: string, how: 'acked' | 'rejected' | 'requeued'): ConsumerView {
    this.bump(queue, UNACKED, -1);
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
    if (v.work && v.lastOk) {
      this.ackedByWorker = consumer;
      this.processed += 1;
    }
    // a script consumer reports no processing: its ack (not a republish-then-ack) settles that copy
    if (!v.processes && v.republishT !== t && !this.lastAckDiscarded) this.processed += 1;
  }

  private dropped(e: Extract<SimEvent, { kind: 'dropped' }>): void {
    const q = e.queue;
    if (q !== undefined && TAKES_QUEUED_COPY.has(e.why)) {
      if (this.rejectedAt(q) > 0) this.bump(q, REJECTED, -1);
      else if (this.readyAt(q) > 0) this.bump(q, READY, -1);
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
