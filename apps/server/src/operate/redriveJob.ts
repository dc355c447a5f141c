/**
 * One re-drive: messages move from a dead-letter queue back to where they first died (or to a
 * chosen exchange), rate limited, with progress, pause and cancel. Never loses one:
 * - the copy is published (mandatory) on a confirm channel, and the original is acked only
 *   once the broker confirmed the copy and did not return it (acks go out in batches, with
 *   `multiple` only over a run of confirmed copies: see sourceAcks.ts);
 * - a message the job leaves (filtered out, skipped with a reason, refused, returned) stays
 *   unacked until the end, then goes back with basic.nack requeue=true.
 * Consuming and publishing use two connections of their own, so each side's loss is known
 * exactly, and each comes back by itself (the broker layer's reconnect with backoff):
 * - the consume side dies: the broker requeues every unacked original. Those whose copy was
 *   confirmed (before or after the loss), and those whose ack was sent but not yet proven
 *   processed (see `checkpoint`), go into multisets of identities (`messageIdentity`). When the
 *   queue redelivers an original whose ack was surely not sent, it is acked without a second
 *   copy (a redelivery whose copy is still unconfirmed waits for that confirm). An original whose
 *   ack was sent but not proven is copied again and counted a possible duplicate: identity is a
 *   content hash, so a byte-identical twin (same body, properties and headers, x-death times
 *   included) cannot be told from the original whose ack was lost, and acking the twin without a
 *   copy would lose it. Checkpoints keep these to one batch of acks.
 * - the publish side dies: the copies not yet confirmed may or may not be on the broker. Their
 *   originals are published again: these, and only these, can exist twice, and are counted in
 *   `duplicatesPossible`.
 * The job fails only when a side stays down longer than `reconnectMs`, with the reason.
 * It reads at most the messages that were in the queue when it started, so a copy that dies
 * again and comes back is not moved twice in one run. It consumes exclusively: a second
 * re-drive of the same queue (in this process or another) is refused by the broker.
 * Progress is read with `progress()` (polled); 'progress' events fire on status changes only.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import {
  AT_LEAST_ONCE_NOTE,
  destinationLabel,
  fixedRedriveDecision,
  matchesFilter,
  redriveDecision,
  xDeathNote,
  type RedriveContext,
  type RedriveDecision,
  type RedriveFilter,
  type RedriveTarget,
  type DeadLetterMessage,
} from '@retry-studio/topology-core';
import { ManagedConnection, redactUrl, waitForDrain, type AmqpUrl } from '../broker/index.js';
import { FramePublisher } from '../broker/publishFrames.js';
import { interceptDeliveries } from '../broker/rawDeliveries.js';
import { copyProperties, copyPropertyList } from './copyProperties.js';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';
import { CountedSet } from './countedSet.js';
import { copyIdentity, messageIdentity } from './messageIdentity.js';
import { SourceAcks, type Slot } from './sourceAcks.js';

export type RedriveStatus = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface RedriveOptions {
  readonly queue: string;
  readonly target: RedriveTarget;
  readonly filter?: RedriveFilter;
  /** move at most this many */
  readonly limit?: number;
  /** messages per second (default: as fast as confirms allow) */
  readonly ratePerSecond?: number;
  /** prefetch: unacked originals at a time (default 5000) */
  readonly window?: number;
  /** the connection's user: a copied user-id that differs would be refused (406) */
  readonly username: string;
  /**
   * prove acks with checkpoints (default true). Fault tests turn it off to hold every ack
   * unproven, the worst case of a consume connection lost between an ack and its proof.
   */
  readonly proveAcks?: boolean;
  /** finish when no message arrived for this long (ms, default 1000) */
  readonly idleMs?: number;
  /** fail when a lost connection is not back within this long (ms, default 60000) */
  readonly reconnectMs?: number;
}

export interface RedriveProgress {
  readonly id: string;
  readonly queue: string;
  readonly status: RedriveStatus;
  /** messages in the queue when the job started */
  readonly before: number;
  readonly seen: number;
  readonly moved: number;
  /** left in the queue on purpose: filtered out, over the limit, or skipped with a reason */
  readonly left: number;
  readonly filteredOut: number;
  readonly inFlight: number;
  readonly byDestination: Readonly<Record<string, number>>;
  readonly skipped: Readonly<Record<string, number>>;
  /**
   * copies that may exist twice: published but not yet confirmed when the publish connection
   * died (their originals were published again), plus confirmed copies whose original was still
   * in the queue when the job stopped
   */
  readonly duplicatesPossible: number;
  /** originals the queue redelivered after a connection loss whose copy was already confirmed: acked, not copied again */
  readonly deduplicated: number;
  /** connections re-opened after a loss (consume and publish side) */
  readonly reconnects: number;
  /** a side is down and being re-opened */
  readonly reconnecting: boolean;
  /** the last connection loss, what it was and when (ms after the start) */
  readonly lastLoss?: string;
  readonly error?: string;
  /** why the job stopped reading early */
  readonly stoppedEarly?: string;
  readonly elapsedMs: number;
  readonly notes: readonly string[];
}

type Side = 'consume' | 'publish';

/** One delivery of an original on one consume channel. */
interface Delivery {
  readonly gen: number;
  readonly msg: ConsumeMessage;
  slot: Slot<Delivery> | undefined;
  /** its place in the run, for the core's reading of it */
  seq: number;
  /** the core's reading of it, made when something needs it (a filter, a decision that depends on the message) */
  dl: DeadLetterMessage | undefined;
  decision: Extract<RedriveDecision, { kind: 'move' }> | undefined;
  /** counted in `seen` (not a redelivery acked without a copy, nor one beyond `before`) */
  counted: boolean;
  /** the broker returned the copy unroutable (basic.return comes before the confirm) */
  returned: boolean | undefined;
  /** taken for returned without an exact match: it may have arrived */
  returnedUnsure: boolean | undefined;
  /** copyIdentity, once computed (a return is matched by it) */
  copyId: string | undefined;
  /** a redelivery whose ack was sent but not proven when the consume side died: copied again, a possible duplicate */
  recopy: boolean | undefined;
  scheduled: boolean;
  inFlight: boolean;
  /** in flight when its consume channel died: the redelivery of the same original, waiting for this copy's confirm */
  successor: Delivery | undefined;
  waitsFor: Delivery | undefined;
  /** the identity, once computed */
  identity: string | undefined;
  /** why it is left: counted in `left` and `skipped`/`filteredOut` */
  held: { reason?: string; filtered: boolean } | undefined;
}

const closedError = (err: unknown): boolean =>
  /channel closed|connection closed|channel ended|connection ended/i.test(String((err as Error)?.message ?? err));

export class RedriveJob extends EventEmitter {
  readonly id = randomUUID().slice(0, 8);
  private status: RedriveStatus = 'running';
  private before = 0;
  private seen = 0;
  private moved = 0;
  private filteredOut = 0;
  private left = 0;
  private scheduled = 0;
  private held = 0;
  private inFlight = 0;
  private duplicatesPossible = 0;
  private deduplicated = 0;
  private reconnects = 0;
  private lastLoss: string | undefined;
  private error: string | undefined;
  private stoppedEarly: string | undefined;
  private readonly byDestination: Record<string, number> = {};
  private readonly skipped: Record<string, number> = {};
  private readonly pending: Delivery[] = [];
  /** copies published and not yet confirmed, oldest first: where a mandatory return is matched */
  private readonly flying = new Set<Delivery>();
  /** originals whose copy is confirmed and which the broker surely requeued */
  private readonly copiedRequeued = new CountedSet();
  /** originals whose copy is confirmed and whose ack was sent but not proven processed when the consume side died */
  private readonly copiedMaybeAcked = new CountedSet();
  /** originals whose copy was still unconfirmed when their consume channel died, by identity: their redelivery waits for the confirm */
  private readonly orphans = new Map<string, Delivery[]>();
  private orphanCount = 0;
  /** acked originals not yet proven processed: the batch under a checkpoint, and the next one */
  private proving: Delivery[] | undefined;
  private unproven: Delivery[] = [];
  private reading = true;
  private consumerTag: string | undefined;
  private wake: (() => void) | undefined;
  private idle: NodeJS.Timeout | undefined;
  private lastArrival = 0;
  private flushScheduled = false;
  private readonly down = new Map<Side, { since: number; reason: string }>();
  private readonly t0 = performance.now();
  private readonly srcConn: ManagedConnection;
  private readonly pubConn: ManagedConnection;
  private src: Channel | undefined;
  private acks: SourceAcks<Delivery> | undefined;
  /** consume channel generation: a delivery belongs to one, its tag means nothing on another */
  private srcGen = 0;
  private pub: ConfirmChannel | undefined;
  /** the publish channel's batch writer (undefined: amqplib's publish, one message at a time) */
  private frames: FramePublisher | undefined;
  private pubGen = 0;
  /** where every copy goes when no message can change it: nothing is read from the messages */
  private readonly fixed: RedriveDecision | undefined;
  private readonly labels = new WeakMap<object, string>();
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
    const backoff = { initialDelayMs: 200, maxDelayMs: 2000 };
    this.srcConn = new ManagedConnection(url, 'operate', { label: `redrive-${this.id}-consume`, backoff });
    this.pubConn = new ManagedConnection(url, 'operate', { label: `redrive-${this.id}-publish`, backoff });
    for (const [side, mc] of [['consume', this.srcConn] as const, ['publish', this.pubConn] as const])
      mc.on('reconnecting', (e: { attempt: number; error?: Error }) => {
        const d = this.down.get(side);
        if (d && e.error) d.reason = e.error.message;
      });
  }

  get queue(): string {
    return this.options.queue;
  }

  get isRunning(): boolean {
    return this.status === 'running' || this.status === 'paused';
  }

  private get window(): number {
    return this.options.window ?? 5000;
  }

  /** The connection names the broker shows for this job (consume side, publish side). */
  get connectionNames(): { consume: string; publish: string } {
    return {
      consume: `retry-studio:operate:redrive-${this.id}-consume`,
      publish: `retry-studio:operate:redrive-${this.id}-publish`,
    };
  }

  /** Opens both sides and starts consuming; rejects when the queue cannot be consumed exclusively. */
  async start(): Promise<void> {
    try {
      const [sc, pc] = await Promise.all([this.srcConn.start(), this.pubConn.start()]);
      const probe = await sc.createChannel();
      probe.on('error', () => undefined);
      this.before = (await probe.checkQueue(this.queue)).messageCount;
      await probe.close().catch(() => undefined);
      await this.openPublish(pc);
      if (this.before === 0) {
        this.reading = false;
        void this.finish('done');
        return;
      }
      await this.openConsume(sc);
      this.srcConn.on('disconnected', () => this.lost('consume', 'the consume connection closed'));
      this.pubConn.on('disconnected', () => this.lost('publish', 'the publish connection closed'));
      void this.pump();
    } catch (err) {
      await this.closeConnections();
      throw err;
    }
  }

  progress(): RedriveProgress {
    const finished = !this.isRunning;
    return {
      id: this.id,
      queue: this.queue,
      status: this.status,
      before: this.before,
      seen: this.seen,
      moved: this.moved,
      left: this.left,
      filteredOut: this.filteredOut,
      inFlight: this.inFlight + this.pending.length,
      byDestination: { ...this.byDestination },
      skipped: { ...this.skipped },
      duplicatesPossible: this.duplicatesPossible,
      deduplicated: this.deduplicated,
      reconnects: this.reconnects,
      reconnecting: this.down.size > 0 && !finished,
      ...(this.lastLoss ? { lastLoss: this.lastLoss } : {}),
      ...(this.error ? { error: this.error } : {}),
      ...(this.stoppedEarly ? { stoppedEarly: this.stoppedEarly } : {}),
      elapsedMs: Math.round(performance.now() - this.t0),
      notes: [
        AT_LEAST_ONCE_NOTE,
        xDeathNote(this.ctx.broker),
        ...(this.duplicatesPossible > 0
          ? [
              `${this.duplicatesPossible} possible duplicates: copies in flight at the crash (published but not yet confirmed, or acked but the ack not yet proven, when a connection died, so published again)`,
            ]
          : []),
      ],
    };
  }

  pause(): void {
    if (this.status === 'running') this.setStatus('paused');
  }

  resume(): void {
    if (this.status === 'paused') {
      this.setStatus('running');
      this.wake?.();
    }
  }

  /** Stops publishing; copies in flight are confirmed, everything else goes back to the queue. */
  async cancel(): Promise<RedriveProgress> {
    if (this.isRunning && !this.finishing) {
      for (const d of this.pending.splice(0)) this.hold(d, {});
      await this.finish('cancelled');
    }
    return this.done;
  }

  private setStatus(s: RedriveStatus): void {
    this.status = s;
    this.emit('progress', this.progress());
  }

  // ---------------------------------------------------------------- consume side

  private async openConsume(conn: Awaited<ReturnType<ManagedConnection['start']>>): Promise<void> {
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
      this.armIdle();
    } catch (err) {
      if (gen === this.srcGen) {
        this.src = undefined;
        this.acks = undefined;
      }
      throw err;
    }
  }

  /**
   * The idle clock starts over: called for every message, so it only notes the time; the one
   * timer pending re-arms itself for what is left (a timer per message cost more than the rest
   * of reading one).
   */
  private armIdle(): void {
    this.lastArrival = performance.now();
    this.idle ??= setTimeout(() => this.onIdle(), this.options.idleMs ?? 1000);
  }

  private clearIdle(): void {
    clearTimeout(this.idle);
    this.idle = undefined;
  }

  private onIdle(): void {
    this.idle = undefined;
    const left = (this.options.idleMs ?? 1000) - (performance.now() - this.lastArrival);
    if (left > 1) {
      this.idle = setTimeout(() => this.onIdle(), left);
      return;
    }
    // idle means the queue has nothing more, not that the job holds back its own window
    // (copies awaiting confirms, a pause, a side reconnecting): then the broker sends nothing either
    if (this.inFlight > 0 || this.pending.length > 0 || this.status === 'paused' || this.down.size > 0)
      return this.armIdle();
    // fewer read than were there: a queue paging from disk can be silent for a while; ask it
    if (this.seen < this.before && this.src) {
      const gen = this.srcGen;
      this.src.checkQueue(this.queue).then(
        (ok) => {
          if (gen !== this.srcGen) return;
          if (ok.messageCount > 0) this.armIdle();
          else this.stopReading();
        },
        () => undefined, // the channel died: lost() re-opens it
      );
    } else this.stopReading();
  }

  private stopReading(why?: string): void {
    if (!this.reading) return;
    this.reading = false;
    this.clearIdle();
    if (why) this.stoppedEarly = why;
    if (this.consumerTag && this.src) this.src.cancel(this.consumerTag).catch(() => undefined);
    this.consumerTag = undefined;
    this.checkDone();
  }

  private get limitReached(): boolean {
    return this.options.limit !== undefined && this.scheduled >= this.options.limit;
  }

  /** originals the queue still owes back after a loss (copies confirmed) */
  private get awaited(): number {
    return this.copiedRequeued.size + this.copiedMaybeAcked.size + this.orphanCount;
  }

  /** a destination's label, made once per decision (a fixed decision is one object for every copy) */
  private label(decision: Extract<RedriveDecision, { kind: 'move' }>): string {
    let l = this.labels.get(decision);
    if (l === undefined) this.labels.set(decision, (l = destinationLabel(decision)));
    return l;
  }

  /** its copy is confirmed and counts as moved, by destination */
  private countMoved(d: Delivery): void {
    this.moved += 1;
    const k = this.label(d.decision!);
    this.byDestination[k] = (this.byDestination[k] ?? 0) + 1;
  }

  private deadLetter(d: Delivery): DeadLetterMessage {
    return (d.dl ??= deadLetterFromAmqp(d.msg, d.seq));
  }

  private identity(d: Delivery): string {
    return (d.identity ??= messageIdentity(d.msg));
  }

  private addOrphan(d: Delivery): void {
    const id = this.identity(d);
    const list = this.orphans.get(id);
    if (list) list.push(d);
    else this.orphans.set(id, [d]);
    this.orphanCount += 1;
  }

  private takeOrphan(id: string, which?: Delivery): Delivery | undefined {
    const list = this.orphans.get(id);
    if (!list) return undefined;
    const i = which ? list.indexOf(which) : 0;
    if (i < 0) return undefined;
    const [d] = list.splice(i, 1);
    if (list.length === 0) this.orphans.delete(id);
    this.orphanCount -= 1;
    return d;
  }

  /** left in the queue: stays unacked until the end, then requeued */
  private hold(d: Delivery, why: { reason?: string; filtered?: boolean }): void {
    if (d.slot) d.slot.state = 'held';
    this.held += 1;
    if (d.counted) {
      d.held = { ...(why.reason ? { reason: why.reason } : {}), filtered: why.filtered === true };
      this.left += 1;
      if (why.filtered) this.filteredOut += 1;
      if (why.reason) this.skipped[why.reason] = (this.skipped[why.reason] ?? 0) + 1;
    }
    if (this.held >= this.window && this.reading)
      this.stopReading(
        `${this.held} messages left in the queue fill the window of ${this.window}: re-drive again with a filter`,
      );
  }

  /** the original went back to the queue (its channel died): it will be read again */
  private unsee(d: Delivery): void {
    if (d.counted) this.seen -= 1;
    if (d.scheduled) this.scheduled -= 1;
    if (d.held) {
      this.left -= 1;
      if (d.held.filtered) this.filteredOut -= 1;
      const r = d.held.reason;
      if (r !== undefined) {
        const left = (this.skipped[r] ?? 0) - 1;
        if (left > 0) this.skipped[r] = left;
        else delete this.skipped[r];
      }
    }
    d.counted = d.scheduled = false;
    d.held = undefined;
  }

  /** back in the queue: read again, or (a copy made, its ack unproven) copied again when it comes back */
  private unseeOrRecopy(d: Delivery): void {
    if (d.recopy) this.copiedMaybeAcked.add(this.identity(d));
    else this.unsee(d);
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
    // every field from the start: one object shape for all deliveries (fields added later cost a shape change each)
    const d: Delivery = {
      gen,
      msg: m,
      slot: undefined,
      seq: this.seen,
      dl: undefined,
      decision: undefined,
      counted: false,
      returned: undefined,
      returnedUnsure: undefined,
      copyId: undefined,
      recopy: undefined,
      scheduled: false,
      inFlight: false,
      successor: undefined,
      waitsFor: undefined,
      identity: undefined,
      held: undefined,
    };
    d.slot = this.acks.add(m.fields.deliveryTag, d);
    if (!this.isRunning || this.finishing) {
      d.slot.state = 'held'; // requeued at the end
      return;
    }
    this.armIdle();
    // an original whose copy the broker already confirmed, redelivered after a loss: ack, no second copy
    if (this.awaited > 0 && m.fields.redelivered) {
      const id = this.identity(d);
      if (this.copiedRequeued.take(id)) {
        this.deduplicated += 1;
        d.slot.state = 'confirmed';
        this.scheduleFlush();
        if (this.awaited === 0 && (this.seen >= this.before || this.limitReached)) this.stopReading();
        return;
      }
      // its ack may have reached the broker, and this be a byte-identical twin: copy it again
      if (this.copiedMaybeAcked.take(id)) return this.decide(d, true);
      // its copy is still unconfirmed: the confirm decides (see onConfirm)
      const old = this.takeOrphan(id);
      if (old) {
        old.successor = d;
        d.waitsFor = old;
        return;
      }
    }
    if (this.seen >= this.before || this.limitReached) {
      // beyond this run (new arrivals, or left over): kept until the end, while awaited redeliveries may still come
      this.hold(d, {});
      if (this.awaited === 0) this.stopReading();
      return;
    }
    this.seen += 1;
    d.counted = true;
    if (this.options.filter && !matchesFilter(this.deadLetter(d), this.options.filter))
      this.hold(d, { filtered: true });
    else this.decide(d, false);
    if ((this.seen >= this.before || this.limitReached) && this.awaited === 0) this.stopReading();
  }

  /** where its copy goes: queued for publishing, or held with the reason; a recopy is not scheduled again (it counted when first read) */
  private decide(d: Delivery, recopy: boolean): void {
    const decision = this.fixed ?? redriveDecision(this.deadLetter(d), this.options.target, this.ctx);
    if (decision.kind === 'skip') return this.hold(d, { reason: decision.reason });
    if (recopy) d.recopy = true;
    else {
      this.scheduled += 1;
      d.scheduled = true;
    }
    d.decision = decision;
    this.pending.push(d);
    this.wake?.();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushAcks();
    });
  }

  private flushAcks(): void {
    if (!this.acks) return;
    const acked = this.acks.flush();
    if (acked.length === 0) return;
    for (const d of acked) this.unproven.push(d);
    this.checkpoint();
    this.checkDone();
  }

  /**
   * Acks have no reply: an ack still on its way when the connection dies is lost, and its
   * original comes back although its copy was confirmed. A passive declare on the same channel
   * is answered by the queue after every earlier ack on the channel was handed to it, so its
   * reply proves those acks processed; until then they are kept (and become awaited
   * redeliveries if the consume side dies).
   */
  private checkpoint(): void {
    if (this.proving || this.unproven.length === 0 || !this.src || this.options.proveAcks === false) return;
    const gen = this.srcGen;
    const batch = (this.proving = this.unproven);
    this.unproven = [];
    this.src.checkQueue(this.queue).then(
      () => {
        if (gen !== this.srcGen || this.proving !== batch) return;
        this.proving = undefined;
        this.checkpoint();
        this.checkDone();
      },
      () => undefined, // the channel died: lost() took the batch over
    );
  }

  // ---------------------------------------------------------------- publish side

  private async openPublish(conn: Awaited<ReturnType<ManagedConnection['start']>>): Promise<void> {
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    const gen = ++this.pubGen;
    ch.on('return', (m: ConsumeMessage) => {
      if (gen === this.pubGen) this.matchReturn(m);
    });
    ch.on('close', () => {
      if (gen === this.pubGen) this.lost('publish', 'the publish channel closed');
    });
    this.pub = ch;
    this.frames = FramePublisher.attach(ch);
    this.wake?.();
  }

  /** hands the batch of copies written so far to the socket: before the pump waits for anything */
  private flushCopies(): boolean {
    return this.frames?.channel === this.pub ? this.frames!.flush() : true;
  }

  private async pump(): Promise<void> {
    const rate = this.options.ratePerSecond;
    // the next send's time; a pause or an outage does not build up a burst (at most 50 ms of catching up)
    let due = performance.now();
    while (this.isRunning && !this.finishing) {
      if (this.status !== 'running' || this.pending.length === 0 || !this.pub) {
        if (!this.flushCopies() && this.pub) await waitForDrain(this.pub).catch(() => undefined);
        this.checkDone();
        await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
        continue;
      }
      // wait for the rate before taking the message: while it is still pending the job cannot finish under it
      if (rate) {
        const wait = due - performance.now();
        if (wait > 4) {
          this.flushCopies();
          await new Promise((r) => setTimeout(r, wait));
        }
        due = Math.max(due, performance.now() - 50) + 1000 / rate;
      }
      const pub = this.pub;
      const next = this.status === 'running' && !this.finishing && pub ? this.pending.shift() : undefined;
      if (!next || !pub) continue;
      // a full batch goes out at once; a full writer is waited for
      if (!this.publish(pub, next) && !this.flushCopies()) await waitForDrain(pub).catch(() => undefined);
    }
  }

  /** false when the batch (or amqplib's writer) is full */
  private publish(pub: ConfirmChannel, d: Delivery): boolean {
    const mv = d.decision!;
    const frames = this.frames?.channel === pub ? this.frames : undefined;
    d.inFlight = true;
    d.returned = false;
    this.inFlight += 1;
    this.flying.add(d);
    try {
      const now = Date.now();
      // an arrow passed inline, not a named const: tsx's keepNames would rename every one (a defineProperty per message)
      if (frames)
        return frames.publish(
          mv.exchange,
          mv.routingKey,
          true,
          copyPropertyList(d.msg, this.options.username, () => this.deadLetter(d).headers, now),
          d.msg.content,
          (err) => this.onConfirm(d, err),
        );
      return pub.publish(
        mv.exchange,
        mv.routingKey,
        d.msg.content,
        { mandatory: true, ...copyProperties(d.msg, this.options.username, this.deadLetter(d).headers, now) },
        (err) => this.onConfirm(d, err),
      );
    } catch (err) {
      d.inFlight = false;
      this.inFlight -= 1;
      this.flying.delete(d);
      if (closedError(err)) this.pending.unshift(d);
      else this.settleRefused(d, `publish failed: ${(err as Error).message}`);
      return true;
    }
  }

  /** is the consume channel `d` came on still open (so its tag can be acked or held) */
  private live(d: Delivery): boolean {
    return d.gen === this.srcGen && this.acks !== undefined;
  }

  private settleRefused(d: Delivery, reason: string): void {
    if (this.live(d)) this.hold(d, { reason });
    else this.unsee(d); // back in the queue already: read again
  }

  /**
   * A basic.return names no publish: it is matched to the copy in flight with the same exchange,
   * routing key, body, properties and headers (the re-drive's marker left out). Byte-identical
   * copies are interchangeable, so the oldest is taken. Should none match exactly (a broker that
   * rewrote something), every copy in flight to that exchange and key counts as returned: their
   * originals stay in the queue, and copies that did arrive are counted as possible duplicates.
   */
  private matchReturn(m: Message): void {
    const ex = m.fields.exchange;
    const rk = m.fields.routingKey;
    let want: string | undefined;
    const sameRoute: Delivery[] = [];
    // oldest first: returns come in publish order, and earlier copies are confirmed and gone, so the match is near the front
    for (const d of this.flying) {
      if (d.returned || d.decision!.exchange !== ex || d.decision!.routingKey !== rk) continue;
      if (d.msg.content.equals(m.content) && (d.copyId ??= copyIdentity(d.msg)) === (want ??= copyIdentity(m))) {
        d.returned = true;
        return;
      }
      sameRoute.push(d);
    }
    for (const d of sameRoute) {
      d.returned = true;
      d.returnedUnsure = true;
    }
  }

  private onConfirm(d: Delivery, err: unknown): void {
    if (!d.inFlight) return;
    d.inFlight = false;
    this.inFlight -= 1;
    this.flying.delete(d);
    const returned = d.returned === true;
    // one of several copies taken for the returned one: if this one arrived, its original stays as well
    if (returned && d.returnedUnsure && !err) this.duplicatesPossible += 1;
    d.returned = d.returnedUnsure = false;
    if (this.status === 'failed') return;
    if (!this.live(d)) {
      // its consume channel died while the copy was in flight: the queue redelivers the original
      // (or already did: `successor`), and this confirm decides what happens to it
      if (!d.successor) this.takeOrphan(this.identity(d), d);
      const next = d.successor;
      d.successor = undefined;
      if (next) next.waitsFor = undefined;
      const refused = (reason: string): void => {
        if (d.recopy) this.duplicatesPossible += 1;
        if (next && this.live(next)) {
          next.counted = d.counted;
          next.scheduled = false;
          if (d.scheduled) this.scheduled -= 1;
          this.hold(next, { reason });
        } else this.unseeOrRecopy(d);
      };
      if (err && closedError(err)) {
        this.duplicatesPossible += 1;
        if (next && this.live(next)) {
          next.counted = d.counted;
          next.scheduled = d.scheduled;
          if (d.recopy) next.recopy = true;
          if (d.dl) next.dl = d.dl;
          next.decision = d.decision!;
          this.pending.unshift(next);
          this.wake?.();
        } else this.unseeOrRecopy(d);
      } else if (err) refused('the destination refused the publish (nack): left in the queue');
      else if (returned)
        refused(
          `returned unroutable by '${d.decision!.exchange || '(default)'}' with key '${d.decision!.routingKey}': left in the queue`,
        );
      else {
        if (d.recopy) this.duplicatesPossible += 1;
        else this.countMoved(d);
        if (next && this.live(next)) {
          this.deduplicated += 1;
          next.slot!.state = 'confirmed';
          this.scheduleFlush();
        } else this.copiedRequeued.add(this.identity(d));
      }
      if (this.awaited === 0 && (this.seen >= this.before || this.limitReached)) this.stopReading();
      this.checkDone();
      return;
    }
    if (err && closedError(err)) {
      // the publish side died before the confirm: the copy may be on the broker. The original is
      // published again (now, or when the queue redelivers it): a possible duplicate.
      this.duplicatesPossible += 1;
      if (!this.finishing) {
        this.pending.unshift(d);
        this.wake?.();
      } else this.hold(d, {});
      this.checkDone();
      return;
    }
    if (d.recopy) {
      // its first copy was confirmed: this one, or the original left in the queue, may be a second
      this.duplicatesPossible += 1;
      if (err || returned) this.hold(d, {});
      else {
        d.slot!.state = 'confirmed';
        this.scheduleFlush();
      }
      this.checkDone();
      return;
    }
    if (err) this.settleRefused(d, 'the destination refused the publish (nack): left in the queue');
    else if (returned)
      this.settleRefused(
        d,
        `returned unroutable by '${d.decision!.exchange || '(default)'}' with key '${d.decision!.routingKey}': left in the queue`,
      );
    else {
      this.countMoved(d);
      d.slot!.state = 'confirmed';
      this.scheduleFlush();
    }
    this.checkDone();
  }

  // ---------------------------------------------------------------- losses and the end

  private lost(side: Side, what: string): void {
    if (this.finishing || !this.isRunning) return;
    if (side === 'consume') {
      if (!this.acks) return; // already handled for this generation
      const acks = this.acks;
      this.acks = undefined;
      this.src = undefined;
      this.consumerTag = undefined;
      this.srcGen += 1;
      this.clearIdle();
      // the broker requeues every unacked original
      for (const s of acks.outstanding()) {
        const d = s.item;
        // confirmed copy (or a redelivery being acked without one), ack not sent: surely requeued
        if (s.state === 'confirmed') this.copiedRequeued.add(this.identity(d));
        else if (s.state === 'held') this.unseeOrRecopy(d);
        else if (d.inFlight) this.addOrphan(d);
        else if (d.waitsFor) {
          // a redelivery waiting for an orphan's confirm went back too: the orphan waits for the next one
          d.waitsFor.successor = undefined;
          this.addOrphan(d.waitsFor);
          d.waitsFor = undefined;
        } else this.unseeOrRecopy(d); // still to publish: read again
        if (s.state === 'held') this.held -= 1;
      }
      this.pending.length = 0;
      for (const d of [...(this.proving ?? []), ...this.unproven]) this.copiedMaybeAcked.add(this.identity(d));
      this.proving = undefined;
      this.unproven = [];
      // read again: the requeued originals come back, and what was left to read
      this.reading = true;
    } else {
      if (!this.pub) return;
      this.pub = undefined;
    }
    const at = Math.round(performance.now() - this.t0);
    this.lastLoss = `${what} at ${at} ms`;
    if (!this.down.has(side)) this.down.set(side, { since: Date.now(), reason: what });
    this.emit('progress', this.progress());
    void this.reopen(side);
  }

  private async reopen(side: Side): Promise<void> {
    const mc = side === 'consume' ? this.srcConn : this.pubConn;
    const limit = this.options.reconnectMs ?? 60_000;
    const since = this.down.get(side)?.since ?? Date.now();
    while (this.isRunning && !this.finishing) {
      const remaining = since + limit - Date.now();
      if (remaining <= 0) {
        const why = this.down.get(side)?.reason ?? 'no reason given';
        return this.fail(
          `the ${side} connection to ${redactUrl(this.url)} was lost and did not come back within ${limit} ms (${why}) after moving ${this.moved}: every message not yet acked is back in '${this.queue}'`,
        );
      }
      // polled, not mc.ready(): a cancel must not leave a timer running for `reconnectMs`
      const conn = mc.current;
      if (!conn) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        if (side === 'consume') await this.openConsume(conn);
        else await this.openPublish(conn);
        this.down.delete(side);
        this.reconnects += 1;
        this.emit('progress', this.progress());
        this.wake?.();
        this.checkDone();
        return;
      } catch (err) {
        const msg = (err as Error).message ?? String(err);
        if (side === 'consume' && /NOT_FOUND|404/.test(msg))
          return this.fail(`queue '${this.queue}' no longer exists (${msg}) after moving ${this.moved}`);
        const d = this.down.get(side);
        if (d) d.reason = msg;
        // the broker may still hold the old exclusive consumer for a moment
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private checkDone(): void {
    if (
      !this.reading &&
      this.pending.length === 0 &&
      this.inFlight === 0 &&
      this.down.size === 0 &&
      this.isRunning &&
      !this.finishing
    )
      void this.finish('done');
  }

  private fail(reason: string): void {
    if (this.finishing || !this.isRunning) return;
    // the side still up: its acks go out before its connection closes (a channel handles its frames in order)
    this.flushAcks();
    this.finishing = true;
    this.clearIdle();
    this.error = reason;
    this.pending.length = 0;
    // confirmed copies whose originals are still in the queue: they exist twice
    this.duplicatesPossible +=
      this.copiedRequeued.size +
      this.copiedMaybeAcked.size +
      this.inFlight +
      (this.acks?.outstanding().filter((s) => s.state === 'confirmed').length ?? 0);
    this.status = 'failed';
    this.wake?.();
    void this.closeConnections().then(() => this.resolveDone(this.progress()));
    this.emit('progress', this.progress());
  }

  private async finish(status: 'done' | 'cancelled'): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    this.clearIdle();
    this.reading = false;
    try {
      if (this.consumerTag && this.src) await this.src.cancel(this.consumerTag).catch(() => undefined);
      // copies in flight: wait for their confirms (cancel path)
      const deadline = Date.now() + 10_000;
      while (this.inFlight > 0 && this.pub && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      for (const d of this.pending.splice(0)) this.hold(d, {});
      this.flushAcks();
      // a confirmed copy whose original could not be acked goes back with the rest: both exist
      this.duplicatesPossible += this.acks?.outstanding().filter((s) => s.state === 'confirmed').length ?? 0;
      // basic.nack, not a channel close: a 4.3 quorum queue does not count it toward the limit
      this.src?.nackAll(true);
    } catch {
      /* the channel is gone: the broker requeued them */
    }
    await this.closeConnections();
    // confirmed copies whose original the queue has not handed back: both exist
    this.duplicatesPossible += this.copiedRequeued.size + (status === 'done' ? 0 : this.copiedMaybeAcked.size);
    this.status = status;
    this.wake?.();
    const p = this.progress();
    this.emit('progress', p);
    this.resolveDone(p);
  }

  private async closeConnections(): Promise<void> {
    const src = this.src;
    const pub = this.pub;
    this.src = undefined;
    this.pub = undefined;
    this.acks = undefined;
    await src?.close().catch(() => undefined);
    await pub?.close().catch(() => undefined);
    await Promise.all([this.srcConn.close(), this.pubConn.close()]);
  }
}
