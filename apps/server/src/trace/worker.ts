/**
 * A design consumer run as a worker on the real broker ('trace' connection), interpreting its
 * declared behaviour with the core's evaluation (chooseAction / processingSucceeds /
 * planRepublish), exactly as the simulator does, and reporting what it does as SimEvents.
 */
import type { Channel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import {
  backoffMs,
  chooseAction,
  planRepublish,
  processingSucceeds,
  type DeliveryView,
} from '@retry-studio/topology-core/behaviour';
import { type ConsumerAction, type ConsumerSpec, type XDeathEntry } from '@retry-studio/topology-core/model';
import { attemptDraw } from '@retry-studio/topology-core/sim';
import { ChannelSlot, headersForDisplay, renameDeaths, xDeathOf, type ManagedConnection } from '../broker/index.js';
import { isSettlement, republishThenAck, settleDelivery, type Settlement } from '../broker/settleDelivery.js';
import type { ReturnedMessage } from './hopReporter.js';
import { LostRejects } from './lostRejects.js';
import { MSG_HEADER, TRACE_HEADER } from './observer.js';
import type { TraceContext } from './traceContext.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** waits `ms`, or less when the delivery is settled meanwhile (its retry has nothing left to do) */
function backoffUnlessSettled(ms: number, open: OpenDelivery | undefined): Promise<void> {
  if (!open) return sleep(ms) as Promise<void>;
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      open!.wake = undefined;
      resolve();
    }
    open.wake = done;
  });
}

/** a delivery not yet settled on its channel (for `multiple`: every earlier one goes with it) */
interface OpenDelivery {
  readonly traced: boolean;
  readonly msgId: string;
  readonly body: string;
  readonly routingKey: string;
  /** its x-death as delivered (broker names) */
  readonly xDeath: XDeathEntry[] | undefined;
  held: boolean;
  /** ends an in-process retry's backoff early once a later multiple settles this delivery */
  wake?: () => void;
}

/** one channel's unsettled deliveries in delivery-tag order (a Map keeps insertion order) */
interface ChannelBook {
  readonly open: Map<number, OpenDelivery>;
  /** how many of them the behaviour chose to hold (the `held` counter) */
  holding: number;
}

export class TraceWorker {
  private ch: Channel | undefined;
  /** the republish channel: concurrent republishes share one (a promise, not a flag) */
  private readonly pub: ChannelSlot<ConfirmChannel>;
  private consumerTag: string | undefined;
  private stopped = false;
  cancelled = false;
  /** the broker cancelled this consumer (its queue was deleted, or its node is down) */
  onCancelled: ((w: TraceWorker) => void) | undefined;
  private readonly attempts = new Map<string, number>();
  private readonly scriptIndex = new Map<string, number>();
  inProgress = 0;
  /** traced deliveries not yet settled, per channel */
  private readonly unacked = new Map<Channel, Map<number, string>>();
  /** every delivery not yet settled, per channel, for hold and multiple */
  private readonly books = new Map<Channel, ChannelBook>();
  /** republishes the broker returned (unroutable), by message, until their confirm says the publish is the broker's */
  private readonly returns = new Map<string, ReturnedMessage[]>();
  /** rejects a channel's loss may have swallowed */
  private readonly lostRejects = new LostRejects<Channel>();
  processed = 0;

  /** this worker's ordered stream of events */
  private readonly lane: string;

  constructor(
    /** the spec with broker (prefixed) names */
    readonly spec: ConsumerSpec,
    private readonly ctx: TraceContext,
  ) {
    this.lane = `worker:${spec.id}`;
    this.pub = new ChannelSlot(
      () => this.ctx.conn.createConfirmChannel(),
      (p) => {
        p.setMaxListeners(0);
        // a return comes before its publish's confirm, and the publish is reported once confirmed: kept until then
        p.on('return', (m: ReturnedMessage) => {
          const id = String(m.properties.headers?.[MSG_HEADER] ?? '');
          const kept = this.returns.get(id);
          if (kept) kept.push(m);
          else this.returns.set(id, [m]);
        });
      },
    );
  }

  get designQueue(): string {
    return this.ctx.back(this.spec.queue);
  }

  /** Consumes again after a cancel (its queue's node is back). */
  async resume(conn: ManagedConnection): Promise<void> {
    if (this.stopped || !this.cancelled) return;
    this.cancelled = false;
    this.ctx.log.notice({
      level: 'info',
      code: 'consumer-resumed',
      message: `consumer '${this.spec.id}' consumes from '${this.designQueue}' again`,
      t: this.ctx.now(),
    });
    await this.setup(conn);
  }

  async setup(conn: ManagedConnection): Promise<void> {
    if (this.stopped || this.cancelled) return;
    const ch = await conn.createChannel();
    this.ch = ch;
    await ch.prefetch(this.spec.prefetch ?? 1);
    const unacked = new Map<number, string>();
    this.unacked.set(ch, unacked);
    this.books.set(ch, { open: new Map(), holding: 0 });
    ch.on('close', () => {
      // the broker puts this channel's unacked deliveries back in the queue
      for (const msgId of unacked.values())
        this.ctx.emit(this.lane, {
          kind: 'requeued',
          msgId,
          body: '',
          queue: this.designQueue,
          consumer: this.spec.id,
        });
      unacked.clear();
      this.unacked.delete(ch);
      this.books.delete(ch);
      this.lostRejects.closed(ch);
    });
    const ok = await ch.consume(
      this.spec.queue,
      (msg) => {
        if (msg === null) {
          // basic.cancel: the queue was deleted (or failed over) under us
          // the session says why (queue deleted, or its node down) once it has looked
          this.cancelled = true;
          this.onCancelled?.(this);
          return;
        }
        void this.handle(ch, msg, performance.now());
        // a stream reader starts where the design says (x-stream-offset; the broker's default is next)
      },
      this.spec.streamOffset !== undefined ? { arguments: { 'x-stream-offset': this.spec.streamOffset } } : {},
    );
    this.consumerTag = ok.consumerTag;
  }

  private publisher(): Promise<ConfirmChannel> {
    return this.pub.get();
  }

  private async handle(ch: Channel, msg: ConsumeMessage, rxAt: number): Promise<void> {
    this.inProgress += 1;
    try {
      await this.process(ch, msg, rxAt);
    } catch (err) {
      // the channel died (broker restart, queue deleted): the broker redelivers the message
      this.ctx.log.notice({
        level: 'warn',
        code: 'worker-error',
        message: `consumer '${this.spec.id}': ${String((err as Error).message ?? err).slice(0, 300)}`,
        t: this.ctx.now(),
      });
    } finally {
      this.inProgress -= 1;
      this.processed += 1;
    }
  }

  private async process(ch: Channel, msg: ConsumeMessage, rxAt: number): Promise<void> {
    const ctx = this.ctx;
    const raw = msg.properties.headers ?? {};
    const headers = headersForDisplay(raw);
    const traced = headers[TRACE_HEADER] === ctx.traceId;
    const msgId =
      typeof headers[MSG_HEADER] === 'string' ? (headers[MSG_HEADER] as string) : `untraced-${msg.fields.deliveryTag}`;
    const body = msg.content.toString('utf8', 0, Math.min(msg.content.length, 1024));
    const realDeath = xDeathOf(headers);
    const { 'x-death': _xd, ...plain } = headers;
    const key = msgId;
    const book = this.books.get(ch);
    const tag = msg.fields.deliveryTag;
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const view: DeliveryView = {
      body,
      headers: plain,
      ...(realDeath ? { xDeath: realDeath } : {}),
      redelivered: msg.fields.redelivered,
      routingKey: msg.fields.routingKey,
      exchange: msg.fields.exchange,
      attempt,
      // read when the behaviour decides: what this channel holds then, this one included
      get held(): number {
        return (book?.holding ?? 0) + 1;
      },
    };
    const q = this.designQueue;
    const consumer = this.spec.id;
    if (traced) {
      // the message a reject lost with its channel never reached: its copy is back in the queue
      const afterLostReject = this.lostRejects.lost(msgId, msg.fields.redelivered, realDeath);
      if (!afterLostReject && !msg.fields.redelivered) ctx.beforeDelivery(msg, msgId, this.spec.queue, rxAt);
      ctx.emit(
        this.lane,
        {
          kind: 'delivered',
          msgId,
          body,
          queue: q,
          consumer,
          redelivered: msg.fields.redelivered,
          headers,
          ...(realDeath ? { xDeath: renameDeaths(realDeath, ctx.back) } : {}),
          ...(msg.properties.expiration !== undefined ? { expiration: String(msg.properties.expiration) } : {}),
          // through the default exchange the routing key is a (prefixed) queue name
          routingKey: msg.fields.exchange === '' ? ctx.back(msg.fields.routingKey) : msg.fields.routingKey,
          exchange: ctx.back(msg.fields.exchange),
        },
        afterLostReject ? { rxAt, afterLostReject: true } : { rxAt },
      );
      this.unacked.get(ch)?.set(msg.fields.deliveryTag, msgId);
    }
    book?.open.set(tag, { traced, msgId, body, routingKey: msg.fields.routingKey, xDeath: realDeath, held: false });
    // a later delivery's multiple may settle this one while it is being processed: then it is done
    const settled = (): boolean => book !== undefined && !book.open.has(tag);
    const b = this.spec.behaviour;
    let action: ConsumerAction;
    const messageIndex = ctx.messageIndex(msgId);
    if (b.kind === 'worker') {
      if (b.processingMs) await sleep(b.processingMs);
      if (settled()) return;
      const run = ctx.nextProcessingAttempt(msgId);
      let ok = processingSucceeds(b.failure ?? ctx.failure, {
        attempt: run,
        body,
        messageIndex,
        random: () => attemptDraw(ctx.seed, messageIndex, run),
      });
      if (traced) ctx.emit(this.lane, { kind: 'processed', msgId, body, queue: q, consumer, attempt: run, ok });
      action = chooseAction(b, view, { ok });
      if (!ok && action.kind === 'retryInProcess') {
        let n = 1;
        const retry = action;
        while (!ok && n < retry.maxAttempts) {
          await backoffUnlessSettled(backoffMs(retry.backoff, n), book?.open.get(tag));
          if (settled()) return;
          n += 1;
          const a = ctx.nextProcessingAttempt(msgId);
          if (b.processingMs) await sleep(b.processingMs);
          ok = processingSucceeds(b.failure ?? ctx.failure, {
            attempt: a,
            body,
            messageIndex,
            random: () => attemptDraw(ctx.seed, messageIndex, a),
          });
          if (traced) ctx.emit(this.lane, { kind: 'processed', msgId, body, queue: q, consumer, attempt: a, ok });
        }
        action = ok ? (b.onSuccess ?? { kind: 'ack' }) : retry.recover;
      }
    } else if (b.kind === 'script') {
      const sk = `${msg.fields.routingKey}|${body}`;
      const i = (this.scriptIndex.get(sk) ?? 0) + 1;
      this.scriptIndex.set(sk, i);
      action = chooseAction(b, view, { scriptIndex: i });
    } else {
      action = chooseAction(b, view, {});
    }
    if (settled()) return;
    await this.execute(ch, msg, action, view, traced, msgId, body, raw);
  }

  private async execute(
    ch: Channel,
    msg: ConsumeMessage,
    action: ConsumerAction,
    view: DeliveryView,
    traced: boolean,
    msgId: string,
    body: string,
    raw: Record<string, unknown>,
  ): Promise<void> {
    const ctx = this.ctx;
    const q = this.designQueue;
    const consumer = this.spec.id;
    if (isSettlement(action) && action.multiple === true) {
      this.settleMultiple(ch, msg, action);
      return;
    }
    switch (action.kind) {
      case 'hold': {
        // left unacked (its prefetch slot taken) until a later multiple settles it
        const book = this.books.get(ch);
        const open = book?.open.get(msg.fields.deliveryTag);
        if (book && open && !open.held) {
          open.held = true;
          book.holding += 1;
        }
        return;
      }
      case 'ack':
        settleDelivery(ch, msg, action);
        this.settle(ch, msg);
        if (traced) ctx.emit(this.lane, { kind: 'acked', msgId, body, queue: q, consumer });
        return;
      case 'defer':
        // the application's timer: held unacked meanwhile, unless something settles it first
        {
          const book = this.books.get(ch);
          await backoffUnlessSettled(action.ms, book?.open.get(msg.fields.deliveryTag));
          if (book !== undefined && !book.open.has(msg.fields.deliveryTag)) return;
        }
        return this.execute(ch, msg, action.then, view, traced, msgId, body, raw);
      case 'discard':
        // the application gives up: a basic.ack, and the message is gone
        settleDelivery(ch, msg, { kind: 'ack' });
        this.settle(ch, msg);
        if (traced) ctx.emit(this.lane, { kind: 'acked', msgId, body, queue: q, consumer, discarded: true });
        return;
      case 'reject':
        settleDelivery(ch, msg, action);
        this.settle(ch, msg);
        if (traced) {
          this.lostRejects.rejected(ch, msgId, view.xDeath);
          ctx.emit(this.lane, { kind: 'rejected', msgId, body, queue: q, consumer });
          ctx.hops.afterReject(this.lane, msgId, body, this.spec.queue, [msg.fields.routingKey]);
        }
        return;
      case 'requeue':
        // 4.3 counts only basic.reject towards a quorum queue's delivery limit: send what was declared
        settleDelivery(ch, msg, action);
        this.settle(ch, msg);
        if (traced) {
          ctx.emit(this.lane, {
            kind: 'requeued',
            msgId,
            body,
            queue: q,
            consumer,
            ...(action.via === 'reject' ? { via: 'reject' as const } : {}),
          });
        }
        return;
      case 'retryInProcess':
        // a recover that is itself a retry: treat as its own recover
        return this.execute(ch, msg, action.recover, view, traced, msgId, body, raw);
      case 'republish': {
        const plan = planRepublish(action, view);
        const headers: Record<string, unknown> = { ...plan.headers };
        if (plan.keepXDeath && raw['x-death'] !== undefined) headers['x-death'] = raw['x-death'];
        // our tracking headers always travel, so the trace follows the copy
        headers[TRACE_HEADER] = raw[TRACE_HEADER];
        headers[MSG_HEADER] = raw[MSG_HEADER];
        const pub = await this.publisher();
        ctx.hops.markPublish(msgId, plan.exchange, headers);
        const properties: Options.Publish = {
          headers,
          persistent: msg.properties.deliveryMode === 2,
          mandatory: true,
          ...(plan.expiration !== undefined ? { expiration: plan.expiration } : {}),
          ...(msg.properties.priority !== undefined ? { priority: msg.properties.priority } : {}),
          ...(msg.properties.messageId !== undefined ? { messageId: msg.properties.messageId } : {}),
        };
        // settled meanwhile by a later delivery's multiple: not acked again
        const stillOpen = () => this.books.get(ch)?.open.has(msg.fields.deliveryTag) === true;
        // the copy is reported once the broker confirmed it: one whose confirm went with the channel
        // (a connection lost) may never have reached it, and the original comes back (requeued) and
        // is republished again; reported at once, it stayed 'in transit' to the trace's end
        let settled: Awaited<ReturnType<typeof republishThenAck>>;
        try {
          settled = await republishThenAck(
            pub,
            ch,
            msg,
            { exchange: plan.exchange, routingKey: plan.routingKey, properties },
            stillOpen,
          );
        } catch (err) {
          this.returns.delete(msgId); // returned or not, nothing of that publish is left
          throw err;
        }
        const { outcome, acked } = settled;
        if (traced)
          ctx.emit(this.lane, {
            kind: 'published',
            msgId,
            body,
            exchange: ctx.back(plan.exchange),
            routingKey: plan.exchange === '' ? ctx.back(plan.routingKey) : plan.routingKey,
            origin: { kind: 'consumer', id: consumer },
            headers: headersForDisplay(headers),
            ...(plan.expiration !== undefined ? { expiration: plan.expiration } : {}),
            mandatory: false,
          });
        if (outcome === 'acked')
          ctx.hops.publishSent(this.lane, msgId, body, plan.exchange, plan.routingKey, plan.expiration);
        for (const m of this.returns.get(msgId) ?? [])
          ctx.hops.onReturn(this.lane, m, { kind: 'consumer', id: consumer }, ctx.mandatoryWanted);
        this.returns.delete(msgId);
        if (outcome === 'nacked' && traced)
          ctx.emit(this.lane, { kind: 'publish-nacked', msgId, body, queue: '', reason: 'overflow' });
        if (!acked) return;
        this.settle(ch, msg);
        if (traced) ctx.emit(this.lane, { kind: 'acked', msgId, body, queue: q, consumer });
        return;
      }
    }
  }

  release(): void {
    this.returns.clear();
    this.lostRejects.clear();
    this.attempts.clear();
    this.scriptIndex.clear();
  }

  private settle(ch: Channel, msg: ConsumeMessage): void {
    const tag = msg.fields.deliveryTag;
    this.unacked.get(ch)?.delete(tag);
    const book = this.books.get(ch);
    const open = book?.open.get(tag);
    if (book && open) {
      if (open.held) book.holding -= 1;
      book.open.delete(tag);
    }
  }

  /**
   * basic.ack / basic.nack with multiple=true: the broker settles this delivery and every earlier
   * unsettled one on the channel, oldest first; each traced one gets its own event, as the
   * simulator emits them (the accounting counts each message's fate).
   */
  private settleMultiple(ch: Channel, msg: ConsumeMessage, action: Settlement): void {
    const upTo = msg.fields.deliveryTag;
    const how = action.kind;
    settleDelivery(ch, msg, action);
    const book = this.books.get(ch);
    const unacked = this.unacked.get(ch);
    if (!book) return;
    const q = this.designQueue;
    const consumer = this.spec.id;
    for (const [tag, d] of [...book.open]) {
      if (tag > upTo) break;
      book.open.delete(tag);
      unacked?.delete(tag);
      if (d.held) book.holding -= 1;
      d.wake?.();
      if (!d.traced) continue;
      const { msgId, body } = d;
      if (how === 'ack') this.ctx.emit(this.lane, { kind: 'acked', msgId, body, queue: q, consumer, multiple: true });
      else if (how === 'requeue')
        this.ctx.emit(this.lane, { kind: 'requeued', msgId, body, queue: q, consumer, multiple: true });
      else {
        this.lostRejects.rejected(ch, msgId, d.xDeath);
        this.ctx.emit(this.lane, { kind: 'rejected', msgId, body, queue: q, consumer, multiple: true });
        this.ctx.hops.afterReject(this.lane, msgId, body, this.spec.queue, [d.routingKey]);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const ch = this.ch;
    this.ch = undefined;
    if (ch) {
      if (this.consumerTag) await ch.cancel(this.consumerTag).catch(() => undefined);
      // let deliveries being processed finish (bounded), then close: unacked ones are requeued
      for (let i = 0; i < 50 && this.inProgress > 0; i++) await sleep(20);
      await ch.close().catch(() => undefined);
    }
    await this.pub.close();
  }
}
