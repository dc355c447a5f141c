/**
 * One re-drive: messages move from a dead-letter queue back to where they first died (or to a
 * chosen exchange), rate limited, with progress, pause and cancel. The job is the lifecycle and
 * the consume side; it composes the copy publisher, the redelivery ledger, the counters, the
 * connections and the source acks. At least once, here: a message the job leaves (filtered out,
 * skipped, refused, returned) stays unacked until the end, then goes back with basic.nack
 * requeue=true; at most the messages that were in the queue at the start are read, so a copy
 * that dies again is not moved twice in one run; the queue is consumed exclusively, so a second
 * re-drive of it is refused by the broker. 'progress' events fire on status changes only.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage, Message } from 'amqplib';
import {
  fixedRedriveDecision,
  matchesFilter,
  redriveDecision,
  type RedriveContext,
  type RedriveDecision,
} from '@retry-studio/topology-core/operate';
import type { AmqpUrl } from '../broker/index.js';
import { interceptDeliveries } from '../broker/rawDeliveries.js';
import { CopyPublisher, type CopyOutcome, type CopyPublisherHost } from './copyPublisher.js';
import { IdleClock } from './idleClock.js';
import { RedeliveryLedger, type LedgerHost } from './redeliveryLedger.js';
import { RedriveConnections, type OpenConnection, type Side, type SidesHost } from './redriveConnections.js';
import { RedriveCounters, redriveProgress, type RedriveProgress, type RedriveStatus } from './redriveCounters.js';
import { deadLetterOf, EDIT_NOT_TWICE, editDelivery, newDelivery, type Delivery } from './redriveDelivery.js';
import type { RedriveOptions } from './redriveOptions.js';
import { SourceAcks } from './sourceAcks.js';

export type { RedriveProgress, RedriveStatus } from './redriveCounters.js';
export type { RedriveOptions } from './redriveOptions.js';

export class RedriveJob extends EventEmitter implements CopyPublisherHost, LedgerHost, SidesHost {
  readonly id = randomUUID().slice(0, 8);
  private status: RedriveStatus = 'running';
  private readonly counts = new RedriveCounters();
  private readonly ledger = new RedeliveryLedger(this, this.counts);
  private readonly copies: CopyPublisher;
  private lastLoss: string | undefined;
  private error: string | undefined;
  private stoppedEarly: string | undefined;
  private reading = true;
  private consumerTag: string | undefined;
  private readonly idle: IdleClock;
  private flushScheduled = false;
  private readonly t0 = performance.now();
  private readonly sides: RedriveConnections;
  private src: Channel | undefined;
  private acks: SourceAcks<Delivery> | undefined;
  /** consume channel generation: a delivery belongs to one, its tag means nothing on another */
  private srcGen = 0;
  /** where every copy goes when no message can change it: nothing is read from the messages */
  private readonly fixed: RedriveDecision | undefined;
  private finishing = false;
  readonly done: Promise<RedriveProgress>;
  private resolveDone!: (p: RedriveProgress) => void;

  constructor(
    /** the AMQP URL with the vhost of the queue */
    readonly url: AmqpUrl,
    private readonly ctx: RedriveContext,
    readonly options: RedriveOptions,
  ) {
    super();
    this.on('error', () => undefined);
    this.done = new Promise((r) => (this.resolveDone = r));
    this.fixed = fixedRedriveDecision(options.target, ctx);
    this.idle = new IdleClock(options.idleMs ?? 1000, () => this.onIdle());
    this.copies = new CopyPublisher(this, this.counts, options.username, options.ratePerSecond);
    this.sides = new RedriveConnections(url, this.id, options.reconnectMs ?? 60_000, this);
  }

  get queue(): string {
    return this.options.queue;
  }

  get isRunning(): boolean {
    return this.status === 'running' || this.status === 'paused';
  }

  /** CopyPublisherHost: copies may go out now */
  get sending(): boolean {
    return this.status === 'running' && !this.finishing;
  }

  /** CopyPublisherHost: the job still runs */
  get active(): boolean {
    return this.isRunning && !this.finishing;
  }

  get failed(): boolean {
    return this.status === 'failed';
  }

  private get window(): number {
    return this.options.window ?? 5000;
  }

  /** The connection names the broker shows for this job (consume side, publish side). */
  get connectionNames(): { consume: string; publish: string } {
    return this.sides.names;
  }

  /** Opens both sides and starts consuming; rejects when the queue cannot be consumed exclusively. */
  async start(): Promise<void> {
    try {
      const [sc, pc] = await this.sides.start();
      const probe = await sc.createChannel();
      probe.on('error', () => undefined);
      this.counts.before = (await probe.checkQueue(this.queue)).messageCount;
      await probe.close().catch(() => undefined);
      await this.copies.open(pc);
      if (this.counts.before === 0) {
        this.reading = false;
        void this.finish('done');
        return;
      }
      await this.openConsume(sc);
      this.sides.consume.on('disconnected', () => this.lost('consume', 'the consume connection closed'));
      this.sides.publish.on('disconnected', () => this.lost('publish', 'the publish connection closed'));
      void this.copies.pump();
    } catch (err) {
      await this.closeConnections();
      throw err;
    }
  }

  progress(): RedriveProgress {
    return redriveProgress(this.counts, {
      id: this.id,
      queue: this.queue,
      status: this.status,
      inFlight: this.copies.inFlight + this.copies.pending.length,
      reconnecting: this.sides.anyDown && this.isRunning,
      lastLoss: this.lastLoss,
      error: this.error,
      stoppedEarly: this.stoppedEarly,
      elapsedMs: Math.round(performance.now() - this.t0),
      broker: this.ctx.broker,
    });
  }

  pause(): void {
    if (this.status === 'running') this.setStatus('paused');
  }

  resume(): void {
    if (this.status === 'paused') {
      this.setStatus('running');
      this.copies.wake();
    }
  }

  /** Stops publishing; copies in flight are confirmed, everything else goes back to the queue. */
  async cancel(): Promise<RedriveProgress> {
    if (this.isRunning && !this.finishing) {
      for (const d of this.copies.pending.splice(0)) this.hold(d, {});
      await this.finish('cancelled');
    }
    return this.done;
  }

  private setStatus(s: RedriveStatus): void {
    this.status = s;
    this.emit('progress', this.progress());
  }

  // ---------------------------------------------------------------- consume side

  private async openConsume(conn: OpenConnection): Promise<void> {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    const gen = ++this.srcGen;
    await ch.prefetch(this.window);
    // deliveries straight off the wire: their bytes are forwarded, decoded only when needed
    interceptDeliveries(ch, (m) => this.onMessage(gen, m));
    this.src = ch;
    this.acks = new SourceAcks<Delivery>((tag, multiple) =>
      ch.ack({ fields: { deliveryTag: tag } } as Message, multiple),
    );
    ch.on('close', () => {
      if (gen === this.srcGen) this.lost('consume', 'the consume channel closed');
    });
    if (!this.reading) return;
    try {
      const ok = await ch.consume(this.queue, (m) => this.onMessage(gen, m), { noAck: false, exclusive: true });
      this.consumerTag = ok.consumerTag;
      this.idle.arm();
    } catch (err) {
      if (gen === this.srcGen) {
        this.src = undefined;
        this.acks = undefined;
      }
      throw err;
    }
  }

  private onIdle(): void {
    // idle means the queue has nothing more, not that the job holds back its own window
    // (copies awaiting confirms, a pause, a side reconnecting): then the broker sends nothing either
    if (this.copies.inFlight > 0 || this.copies.pending.length > 0 || this.status === 'paused' || this.sides.anyDown)
      return this.idle.arm();
    // fewer read than were there: a queue paging from disk can be silent for a while; ask it
    if (this.counts.seen < this.counts.before && this.src) {
      const gen = this.srcGen;
      this.src.checkQueue(this.queue).then(
        (ok) => {
          if (gen !== this.srcGen) return;
          if (ok.messageCount > 0) this.idle.arm();
          else this.stopReading();
        },
        () => undefined, // the channel died: lost() re-opens it
      );
    } else this.stopReading();
  }

  private stopReading(why?: string): void {
    if (!this.reading) return;
    this.reading = false;
    this.idle.clear();
    if (why) this.stoppedEarly = why;
    if (this.consumerTag && this.src) this.src.cancel(this.consumerTag).catch(() => undefined);
    this.consumerTag = undefined;
    this.checkDone();
  }

  private get limitReached(): boolean {
    return this.options.limit !== undefined && this.counts.scheduled >= this.options.limit;
  }

  /** read all this run may read, and the queue owes nothing back: stop consuming */
  private stopWhenAllRead(): void {
    if (this.ledger.awaited === 0 && (this.counts.seen >= this.counts.before || this.limitReached)) this.stopReading();
  }

  /** LedgerHost: its copy is confirmed and counts as moved, by destination */
  countMoved(d: Delivery): void {
    this.counts.countMovedTo(d.decision!);
  }

  /** left in the queue: stays unacked until the end, then requeued */
  hold(d: Delivery, why: { reason?: string; filtered?: boolean }): void {
    if (d.slot) d.slot.state = 'held';
    this.counts.countHeld(d, why);
    if (this.counts.held >= this.window && this.reading)
      this.stopReading(
        `${this.counts.held} messages left in the queue fill the window of ${this.window}: re-drive again with a filter`,
      );
  }

  private onMessage(gen: number, m: ConsumeMessage | null): void {
    if (gen !== this.srcGen || !this.acks) return;
    if (!m) {
      // the broker cancelled the consumer: the queue was deleted, or the broker is going down.
      // Either way this channel's originals go back (closing it); re-opening tells which.
      const ch = this.src;
      this.lost('consume', 'the broker cancelled the consumer');
      void ch?.close().catch(() => undefined);
      return;
    }
    const d = newDelivery(gen, m, this.counts.seen);
    d.slot = this.acks.add(m.fields.deliveryTag, d);
    if (!this.isRunning || this.finishing) {
      d.slot.state = 'held'; // requeued at the end
      return;
    }
    this.idle.arm();
    // an original whose copy the broker already confirmed, redelivered after a loss: ack, no second copy
    if (this.ledger.awaited > 0 && m.fields.redelivered) {
      const was = this.ledger.redelivered(d);
      if (was === 'copied') {
        this.counts.deduplicated += 1;
        this.confirmed(d);
        return this.stopWhenAllRead();
      }
      // its edited copy may have arrived: never sent twice, the original stays
      if (was === 'edit-unsure') {
        this.counts.seen += 1;
        d.counted = d.editUnsure = true;
        return this.hold(d, { reason: EDIT_NOT_TWICE });
      }
      // its ack may have reached the broker, and this be a byte-identical twin: copy it again
      if (was === 'recopy') return this.decide(d, true);
      // its copy is still unconfirmed: the confirm decides (see settleOrphan)
      if (was === 'waits') return;
    }
    if (this.counts.seen >= this.counts.before || this.limitReached) {
      // beyond this run (new arrivals, or left over): kept until the end, while awaited redeliveries may still come
      this.hold(d, {});
      if (this.ledger.awaited === 0) this.stopReading();
      return;
    }
    this.counts.seen += 1;
    d.counted = true;
    if (this.options.filter && !matchesFilter(deadLetterOf(d), this.options.filter)) this.hold(d, { filtered: true });
    else this.decide(d, false);
    this.stopWhenAllRead();
  }

  /** where its copy goes: queued for publishing, or held with the reason; a recopy is not scheduled again (it counted when first read) */
  private decide(d: Delivery, recopy: boolean): void {
    const decision = this.fixed ?? redriveDecision(deadLetterOf(d), this.options.target, this.ctx);
    if (decision.kind === 'skip') return this.hold(d, { reason: decision.reason });
    if (this.options.edit && !this.editOf(d, recopy)) return;
    if (recopy) d.recopy = true;
    else {
      this.counts.scheduled += 1;
      d.scheduled = true;
    }
    d.decision = decision;
    this.copies.pending.push(d);
    this.copies.wake();
  }

  /** the edited copy made, or held with the reason (false): a recopy of an edited one is never sent */
  private editOf(d: Delivery, recopy: boolean): boolean {
    if (recopy) d.editUnsure = true;
    const refused = recopy ? EDIT_NOT_TWICE : editDelivery(d, this.options.edit!);
    if (refused) this.hold(d, { reason: refused });
    return refused === undefined;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushAcks();
    });
  }

  /** acks for what is confirmed go out, each batch then proven by a checkpoint (see the ledger) */
  private flushAcks(): void {
    if (!this.acks || !this.src) return;
    const gen = this.srcGen;
    const current = (): boolean => gen === this.srcGen;
    const prove = this.options.proveAcks !== false;
    if (this.ledger.flushAcks(this.acks, this.src, this.queue, prove, current, () => this.checkDone()))
      this.checkDone();
  }

  // ---------------------------------------------------------------- copies settled

  /** is the consume channel `d` came on still open (so its tag can be acked or held) */
  live(d: Delivery): boolean {
    return d.gen === this.srcGen && this.acks !== undefined;
  }

  /** CopyPublisherHost: a publish that threw */
  refuse(d: Delivery, reason: string): void {
    if (this.live(d)) this.hold(d, { reason });
    else this.counts.uncount(d); // back in the queue already: read again
  }

  /** CopyPublisherHost: the ledger settles it (an orphan's redelivery may end the reading) */
  settle(d: Delivery, o: CopyOutcome): void {
    if (this.ledger.settle(d, o) === 'orphan') this.stopWhenAllRead();
    this.checkDone();
  }

  /** LedgerHost: its copy goes out first */
  resend(d: Delivery): void {
    this.copies.pending.unshift(d);
    this.copies.wake();
  }

  /** LedgerHost: ack it (with the next batch of acks) */
  confirmed(d: Delivery): void {
    d.slot!.state = 'confirmed';
    this.scheduleFlush();
  }

  // ---------------------------------------------------------------- losses and the end

  /** CopyPublisherHost: the publish channel closed */
  lost(what: string): void;
  lost(side: Side, what: string): void;
  lost(a: string, b?: string): void {
    const [side, what] = b === undefined ? (['publish', a] as const) : ([a as Side, b] as const);
    if (this.finishing || !this.isRunning) return;
    if (side === 'consume') {
      if (!this.acks) return; // already handled for this generation
      this.consumeLost(this.acks);
    } else if (!this.copies.detach()) return;
    const at = Math.round(performance.now() - this.t0);
    this.lastLoss = `${what} at ${at} ms`;
    this.sides.lost(side, what);
    this.emit('progress', this.progress());
  }

  /** the broker requeues every unacked original: each is read again, or awaited in the ledger */
  private consumeLost(acks: SourceAcks<Delivery>): void {
    this.acks = undefined;
    this.src = undefined;
    this.consumerTag = undefined;
    this.srcGen += 1;
    this.idle.clear();
    this.ledger.consumeLost(acks.outstanding());
    this.copies.pending.length = 0;
    // read again: the requeued originals come back, and what was left to read
    this.reading = true;
  }

  /** SidesHost */
  async openSide(side: Side, conn: OpenConnection): Promise<void> {
    if (side === 'consume') await this.openConsume(conn);
    else await this.copies.open(conn);
  }

  /** SidesHost */
  reopened(): void {
    this.counts.reconnects += 1;
    this.emit('progress', this.progress());
    this.copies.wake();
    this.checkDone();
  }

  get moved(): number {
    return this.counts.moved;
  }

  /** CopyPublisherHost: finished when nothing is left to read, send or re-open */
  checkDone(): void {
    if (
      !this.reading &&
      this.copies.pending.length === 0 &&
      this.copies.inFlight === 0 &&
      !this.sides.anyDown &&
      this.isRunning &&
      !this.finishing
    )
      void this.finish('done');
  }

  fail(reason: string): void {
    if (this.finishing || !this.isRunning) return;
    // the side still up: its acks go out before its connection closes (a channel handles its frames in order)
    this.flushAcks();
    this.finishing = true;
    this.idle.clear();
    this.error = reason;
    this.copies.pending.length = 0;
    // confirmed copies whose originals are still in the queue: they exist twice
    this.counts.duplicatesPossible +=
      this.ledger.copiedRequeued.size +
      this.ledger.copiedMaybeAcked.size +
      this.copies.inFlight +
      (this.acks?.outstanding().filter((s) => s.state === 'confirmed').length ?? 0);
    this.status = 'failed';
    this.copies.wake();
    void this.closeConnections().then(() => this.resolveDone(this.progress()));
    this.emit('progress', this.progress());
  }

  private async finish(status: 'done' | 'cancelled'): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    this.idle.clear();
    this.reading = false;
    try {
      if (this.consumerTag && this.src) await this.src.cancel(this.consumerTag).catch(() => undefined);
      // copies in flight: wait for their confirms (cancel path)
      const deadline = Date.now() + 10_000;
      while (this.copies.inFlight > 0 && this.copies.connected && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      for (const d of this.copies.pending.splice(0)) this.hold(d, {});
      this.flushAcks();
      // a confirmed copy whose original could not be acked goes back with the rest: both exist
      this.counts.duplicatesPossible += this.acks?.outstanding().filter((s) => s.state === 'confirmed').length ?? 0;
      // basic.nack, not a channel close: a 4.3 quorum queue does not count it toward the limit
      this.src?.nackAll(true);
    } catch {
      /* the channel is gone: the broker requeued them */
    }
    await this.closeConnections();
    // confirmed copies whose original the queue has not handed back: both exist
    this.counts.duplicatesPossible +=
      this.ledger.copiedRequeued.size + (status === 'done' ? 0 : this.ledger.copiedMaybeAcked.size);
    this.status = status;
    this.copies.wake();
    const p = this.progress();
    this.emit('progress', p);
    this.resolveDone(p);
  }

  private async closeConnections(): Promise<void> {
    const src = this.src;
    this.src = undefined;
    this.acks = undefined;
    await src?.close().catch(() => undefined);
    await this.copies.close();
    await this.sides.close();
  }
}
