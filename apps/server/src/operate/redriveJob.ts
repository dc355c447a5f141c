/**
 * One re-drive: messages move from a dead-letter queue back to where they first died (or to a
 * chosen exchange), rate limited, with progress, pause and cancel. Never loses one:
 * - the copy is published (mandatory) on a confirm channel, and the original is acked only
 *   once the broker confirmed the copy and did not return it;
 * - a message the job leaves (filtered out, skipped with a reason, refused, returned) stays
 *   unacked until the end, then goes back with basic.nack requeue=true;
 * - if the connection dies, the broker requeues every unacked original: at worst the copies in
 *   flight at that moment, and those whose original's ack was still on its way (together
 *   reported as `duplicatesPossible`), exist twice.
 * The job reads at most the messages that were in the queue when it started, so a copy that
 * dies again and comes back is not moved twice in one run. It consumes exclusively: a second
 * re-drive of the same queue (in this process or another) is refused by the broker.
 * Progress is read with `progress()` (polled); 'progress' events fire on status changes only.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import {
  AT_LEAST_ONCE_NOTE,
  REDRIVE_ID_HEADER,
  destinationLabel,
  matchesFilter,
  redriveDecision,
  redriveMarker,
  xDeathNote,
  type RedriveContext,
  type RedriveDecision,
  type RedriveFilter,
  type RedriveTarget,
  type DeadLetterMessage,
} from '@retry-studio/topology-core';
import { waitForDrain } from '../broker/index.js';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';

export type RedriveStatus = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface RedriveOptions {
  readonly queue: string;
  readonly target: RedriveTarget;
  readonly filter?: RedriveFilter;
  /** move at most this many */
  readonly limit?: number;
  /** messages per second (default: as fast as confirms allow) */
  readonly ratePerSecond?: number;
  /** unacked window (default 3000) */
  readonly window?: number;
  /** the connection's user: a copied user-id that differs would be refused (406) */
  readonly username: string;
  /** finish when no message arrived for this long (ms, default 1000) */
  readonly idleMs?: number;
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
  /** when the connection died: copies not yet confirmed, and confirmed copies whose original's ack may not have reached the broker; each may exist twice */
  readonly duplicatesPossible: number;
  readonly error?: string;
  /** why the job stopped reading early */
  readonly stoppedEarly?: string;
  readonly elapsedMs: number;
  readonly notes: readonly string[];
}

interface Move {
  readonly msg: ConsumeMessage;
  readonly dl: DeadLetterMessage;
  readonly decision: Extract<RedriveDecision, { kind: 'move' }>;
}

export class RedriveJob extends EventEmitter {
  readonly id = randomUUID().slice(0, 8);
  private status: RedriveStatus = 'running';
  private before = 0;
  private seen = 0;
  private moved = 0;
  private filteredOut = 0;
  private left = 0;
  private scheduled = 0;
  private duplicatesPossible = 0;
  private unconfirmedAtLoss = 0;
  /** acks sent, and how many of them the broker is known to have processed (see checkpoint) */
  private acksSent = 0;
  private acksProcessed = 0;
  private checkpointing = false;
  private error: string | undefined;
  private stoppedEarly: string | undefined;
  private readonly byDestination: Record<string, number> = {};
  private readonly skipped: Record<string, number> = {};
  private readonly pending: Move[] = [];
  private readonly inFlight = new Map<string, Move>();
  private readonly returned = new Set<string>();
  private held = 0;
  private reading = true;
  private consumerTag: string | undefined;
  private wake: (() => void) | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly t0 = performance.now();
  private src!: Channel;
  private pub!: ConfirmChannel;
  private finishing = false;
  private n = 0;
  readonly done: Promise<RedriveProgress>;
  private resolveDone!: (p: RedriveProgress) => void;

  constructor(
    private readonly conn: ChannelModel,
    private readonly ctx: RedriveContext,
    readonly options: RedriveOptions,
  ) {
    super();
    this.on('error', () => undefined);
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  get queue(): string {
    return this.options.queue;
  }

  get isRunning(): boolean {
    return this.status === 'running' || this.status === 'paused';
  }

  /** Opens the channels and starts consuming; rejects when the queue cannot be consumed exclusively. */
  async start(): Promise<void> {
    const window = this.options.window ?? 3000;
    this.src = await this.conn.createChannel();
    this.src.on('error', () => undefined);
    this.pub = await this.conn.createConfirmChannel();
    this.pub.on('error', () => undefined);
    try {
      this.before = (await this.src.checkQueue(this.queue)).messageCount;
      await this.src.prefetch(window);
      this.pub.on('return', (m: ConsumeMessage) => {
        const id = m.properties.headers?.[REDRIVE_ID_HEADER];
        if (typeof id === 'string') this.returned.add(id);
      });
      const lost = (which: string) => (): void => this.lost(which);
      this.src.on('close', lost('source'));
      this.pub.on('close', lost('publish'));
      if (this.before === 0) {
        this.reading = false;
        void this.finish('done');
        return;
      }
      const ok = await this.src.consume(this.queue, (m) => this.onMessage(m), { noAck: false, exclusive: true });
      this.consumerTag = ok.consumerTag;
      this.armIdle();
      void this.pump();
    } catch (err) {
      await this.closeChannels();
      throw err;
    }
  }

  progress(): RedriveProgress {
    return {
      id: this.id,
      queue: this.queue,
      status: this.status,
      before: this.before,
      seen: this.seen,
      moved: this.moved,
      left: this.left,
      filteredOut: this.filteredOut,
      inFlight: this.inFlight.size + this.pending.length,
      byDestination: { ...this.byDestination },
      skipped: { ...this.skipped },
      duplicatesPossible: this.status === 'failed' ? this.duplicatesPossible : this.unconfirmedAtLoss,
      ...(this.error ? { error: this.error } : {}),
      ...(this.stoppedEarly ? { stoppedEarly: this.stoppedEarly } : {}),
      elapsedMs: Math.round(performance.now() - this.t0),
      notes: [AT_LEAST_ONCE_NOTE, xDeathNote(this.ctx.broker)],
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
    if (this.isRunning) {
      for (const m of this.pending.splice(0)) this.hold(m.msg);
      await this.finish('cancelled');
    }
    return this.done;
  }

  private setStatus(s: RedriveStatus): void {
    this.status = s;
    this.emit('progress', this.progress());
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stopReading(), this.options.idleMs ?? 1000);
  }

  private stopReading(why?: string): void {
    if (!this.reading) return;
    this.reading = false;
    clearTimeout(this.idle);
    if (why) this.stoppedEarly = why;
    if (this.consumerTag) this.src.cancel(this.consumerTag).catch(() => undefined);
    this.checkDone();
  }

  /** left in the queue: stays unacked until the end, then requeued */
  private hold(_m: ConsumeMessage, reason?: string): void {
    this.held += 1;
    this.left += 1;
    if (reason) this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    if (this.held >= (this.options.window ?? 3000) && this.reading)
      this.stopReading(`${this.held} messages left in the queue fill the window of ${this.options.window ?? 3000}: re-drive again with a filter`);
  }

  private onMessage(m: ConsumeMessage | null): void {
    if (!m) return this.stopReading('the queue was deleted');
    if (!this.isRunning || this.finishing) return; // requeued at the end
    this.armIdle();
    this.seen += 1;
    if (this.seen > this.before) {
      this.hold(m);
      return this.stopReading();
    }
    const dl = deadLetterFromAmqp(m, this.seen - 1);
    if (!matchesFilter(dl, this.options.filter)) {
      this.filteredOut += 1;
      this.hold(m);
    } else if (this.options.limit !== undefined && this.scheduled >= this.options.limit) {
      this.hold(m);
      this.stopReading();
    } else {
      const d = redriveDecision(dl, this.options.target, this.ctx);
      if (d.kind === 'skip') this.hold(m, d.reason);
      else {
        this.scheduled += 1;
        this.pending.push({ msg: m, dl, decision: d });
        this.wake?.();
      }
    }
    if (this.seen >= this.before || (this.options.limit !== undefined && this.scheduled >= this.options.limit)) this.stopReading();
  }

  private async pump(): Promise<void> {
    const rate = this.options.ratePerSecond;
    const start = performance.now();
    let sent = 0;
    while (this.isRunning && !this.finishing) {
      if (this.status !== 'running' || this.pending.length === 0) {
        this.checkDone();
        await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
        continue;
      }
      // wait for the rate before taking the message: while it is still pending the job cannot finish under it
      if (rate) {
        const due = start + (sent * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 4) await new Promise((r) => setTimeout(r, wait));
      }
      const next = this.status === 'running' && !this.finishing ? this.pending.shift() : undefined;
      if (!next) continue;
      sent += 1;
      const ok = this.publish(next);
      if (!ok) await waitForDrain(this.pub).catch(() => undefined);
    }
  }

  private publish(mv: Move): boolean {
    const id = `${this.id}/${++this.n}`;
    const p = mv.msg.properties;
    const raw = (p.headers ?? {}) as Record<string, unknown>;
    const headers = { ...raw, ...redriveMarker(mv.dl.headers, Date.now(), id) };
    const props: Options.Publish = {
      mandatory: true,
      headers,
      ...(p.contentType !== undefined ? { contentType: p.contentType as string } : {}),
      ...(p.contentEncoding !== undefined ? { contentEncoding: p.contentEncoding as string } : {}),
      ...(p.deliveryMode !== undefined ? { deliveryMode: p.deliveryMode as number } : {}),
      ...(p.priority !== undefined ? { priority: p.priority as number } : {}),
      ...(p.correlationId !== undefined ? { correlationId: p.correlationId as string } : {}),
      ...(p.replyTo !== undefined ? { replyTo: p.replyTo as string } : {}),
      ...(p.expiration !== undefined ? { expiration: p.expiration as string } : {}),
      ...(p.messageId !== undefined ? { messageId: p.messageId as string } : {}),
      ...(p.timestamp !== undefined ? { timestamp: p.timestamp as number } : {}),
      ...(p.type !== undefined ? { type: p.type as string } : {}),
      ...(p.appId !== undefined ? { appId: p.appId as string } : {}),
      ...(p.userId !== undefined && p.userId === this.options.username ? { userId: p.userId as string } : {}),
    };
    this.inFlight.set(id, mv);
    try {
      return this.pub.publish(mv.decision.exchange, mv.decision.routingKey, mv.msg.content, props, (err) => this.onConfirm(id, err));
    } catch (err) {
      this.inFlight.delete(id);
      this.hold(mv.msg, `publish failed: ${(err as Error).message}`);
      return true;
    }
  }

  private onConfirm(id: string, err: unknown): void {
    const mv = this.inFlight.get(id);
    if (!mv || this.status === 'failed') return;
    // amqplib fails every unconfirmed publish with 'channel closed' before the channel's 'close'
    // event: those copies may have reached the broker, their originals go back: possible duplicates
    if (err && /channel closed|connection closed/i.test(String((err as Error).message ?? err))) {
      this.unconfirmedAtLoss += 1;
      this.inFlight.delete(id);
      return;
    }
    this.inFlight.delete(id);
    if (err) this.hold(mv.msg, 'the destination refused the publish (nack): left in the queue');
    else if (this.returned.delete(id)) this.hold(mv.msg, `returned unroutable by '${mv.decision.exchange || '(default)'}' with key '${mv.decision.routingKey}': left in the queue`);
    else {
      this.src.ack(mv.msg);
      this.acksSent += 1;
      this.checkpoint();
      this.moved += 1;
      const k = destinationLabel(mv.decision);
      this.byDestination[k] = (this.byDestination[k] ?? 0) + 1;
    }
    this.checkDone();
  }

  /**
   * Acks have no reply: an ack still in the socket when the connection dies is lost, and its
   * original comes back although its copy was confirmed. A synchronous call on the same channel
   * (a passive declare) proves every earlier ack was processed (a channel's frames are handled
   * in order), which bounds the duplicates a crash can make.
   */
  private checkpoint(): void {
    if (this.checkpointing || this.acksSent - this.acksProcessed < 200) return;
    this.checkpointing = true;
    const at = this.acksSent;
    this.src.checkQueue(this.queue).then(
      () => {
        this.acksProcessed = at;
        this.checkpointing = false;
      },
      () => (this.checkpointing = false),
    );
  }

  private checkDone(): void {
    if (!this.reading && this.pending.length === 0 && this.inFlight.size === 0 && this.isRunning && !this.finishing) void this.finish('done');
  }

  private lost(which: string): void {
    if (this.finishing || !this.isRunning) return;
    this.finishing = true;
    clearTimeout(this.idle);
    this.duplicatesPossible = this.inFlight.size + this.unconfirmedAtLoss + (this.acksSent - this.acksProcessed);
    this.error = `the ${which} channel closed (connection lost or broker restarted) after moving ${this.moved}: every message not yet acked went back to '${this.queue}'${this.duplicatesPossible ? `; ${this.duplicatesPossible} copies in flight may exist twice` : ''}`;
    this.inFlight.clear();
    this.pending.length = 0;
    this.status = 'failed';
    this.wake?.();
    void this.closeChannels().then(() => this.resolveDone(this.progress()));
    this.emit('progress', this.progress());
  }

  private async finish(status: 'done' | 'cancelled'): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    clearTimeout(this.idle);
    this.reading = false;
    try {
      if (this.consumerTag) await this.src.cancel(this.consumerTag).catch(() => undefined);
      // copies in flight: wait for their confirms (cancel path)
      const deadline = Date.now() + 10_000;
      while (this.inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      for (const m of this.pending.splice(0)) this.hold(m.msg);
      // basic.nack, not a channel close: a 4.3 quorum queue does not count it toward the limit
      this.src.nackAll(true);
    } catch {
      /* the channel is gone: the broker requeued them */
    }
    await this.closeChannels();
    this.status = status;
    this.wake?.();
    const p = this.progress();
    this.emit('progress', p);
    this.resolveDone(p);
  }

  private async closeChannels(): Promise<void> {
    await this.src?.close().catch(() => undefined);
    await this.pub?.close().catch(() => undefined);
  }
}
