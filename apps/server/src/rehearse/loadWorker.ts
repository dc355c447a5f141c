/**
 * A design consumer on a real broker under a rehearsal's load: it works `processingMs` on each
 * delivery (as many at once as its prefetch, the load's concurrency), decides with the core's
 * failure schedule at the wall-clock instant it finishes (attemptFails: the outage windows, the
 * poison share, the seeded errors, exactly as the rehearsal does), then acts with the core's
 * behaviour rules (chooseAction, planRepublish) and settles through the broker layer.
 */
import type { Channel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { chooseAction, planRepublish, type DeliveryView } from '@retry-studio/topology-core/behaviour';
import type { ConsumerAction, ConsumerSpec } from '@retry-studio/topology-core/model';
import { attemptFails, poisonDraw, type ConsumerLoad } from '@retry-studio/topology-core/rehearse';
import { headersForDisplay, xDeathOf, type ManagedConnection } from '../broker/index.js';
import { isSettlement, republishThenAck, settleDelivery } from '../broker/settleDelivery.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What every worker of one run shares: the clock, the seed, the counts. */
export interface LoadRun {
  readonly seed: number;
  /** ms since the first publish */
  now(): number;
  /** processing attempts per message, across every worker (the failure schedule's `attempt`) */
  readonly attempts: Map<number, number>;
  onDelivered(queue: string): void;
  onSucceeded(ordinal: number, t: number): void;
  /** deliveries being worked on, per queue (the broker counts them as unacked) */
  readonly working: Map<string, number>;
  onError(message: string): void;
}

export class LoadWorker {
  private ch: Channel | undefined;
  private pub: ConfirmChannel | undefined;
  private readonly seen = new Map<number, number>();
  private readonly scriptIndex = new Map<number, number>();

  constructor(
    readonly spec: ConsumerSpec,
    private readonly load: ConsumerLoad | undefined,
    private readonly run: LoadRun,
  ) {}

  async start(conn: ManagedConnection): Promise<void> {
    const ch = await conn.createChannel();
    this.ch = ch;
    this.pub = await conn.createConfirmChannel();
    this.pub.setMaxListeners(0);
    // basic.qos 0 is no limit: an unbounded concurrency
    const c = this.load?.concurrency;
    await ch.prefetch(c !== undefined ? (Number.isFinite(c) ? c : 0) : (this.spec.prefetch ?? 1));
    await ch.consume(this.spec.queue, (msg) => {
      if (msg)
        void this.handle(ch, msg).catch((e: Error) => this.run.onError(`consumer '${this.spec.id}': ${e.message}`));
    });
  }

  async stop(): Promise<void> {
    await this.ch?.close().catch(() => undefined);
    await this.pub?.close().catch(() => undefined);
  }

  private async handle(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const q = this.spec.queue;
    this.run.onDelivered(q);
    this.run.working.set(q, (this.run.working.get(q) ?? 0) + 1);
    try {
      const body = msg.content.toString('utf8');
      const ordinal = Number(body);
      const raw = (msg.properties.headers ?? {}) as Record<string, unknown>;
      const headers = headersForDisplay(raw);
      const xDeath = xDeathOf(headers);
      const { 'x-death': _xd, ...plain } = headers;
      void _xd;
      const seen = (this.seen.get(ordinal) ?? 0) + 1;
      this.seen.set(ordinal, seen);
      const view: DeliveryView = {
        body,
        headers: plain,
        ...(xDeath ? { xDeath } : {}),
        redelivered: msg.fields.redelivered,
        routingKey: msg.fields.routingKey,
        exchange: msg.fields.exchange,
        attempt: seen,
      };
      const b = this.spec.behaviour;
      let action: ConsumerAction;
      if (b.kind === 'worker') {
        const ms = this.load?.processingMs ?? 0;
        if (ms > 0) await sleep(ms);
        const attempt = (this.run.attempts.get(ordinal) ?? 0) + 1;
        this.run.attempts.set(ordinal, attempt);
        const t = this.run.now();
        const ok = this.load
          ? !attemptFails(
              this.load,
              this.run.seed,
              { ordinal, poisonU: poisonDraw(this.run.seed, ordinal) },
              attempt,
              t,
            )
          : true;
        if (ok) this.run.onSucceeded(ordinal, t);
        action = chooseAction(b, view, { ok });
        // in-process retries run no further attempts here: their recover settles the delivery
        if (action.kind === 'retryInProcess') action = action.recover;
      } else if (b.kind === 'script') {
        const i = (this.scriptIndex.get(ordinal) ?? 0) + 1;
        this.scriptIndex.set(ordinal, i);
        action = chooseAction(b, view, { scriptIndex: i });
      } else action = chooseAction(b, view, {});
      await this.execute(ch, msg, action, view, raw);
    } finally {
      this.run.working.set(q, (this.run.working.get(q) ?? 1) - 1);
    }
  }

  private async execute(
    ch: Channel,
    msg: ConsumeMessage,
    action: ConsumerAction,
    view: DeliveryView,
    raw: Record<string, unknown>,
  ): Promise<void> {
    if (isSettlement(action)) return settleDelivery(ch, msg, { ...action, multiple: false });
    if (action.kind === 'republish') {
      const plan = planRepublish(action, view);
      const headers: Record<string, unknown> = { ...plan.headers };
      if (plan.keepXDeath && raw['x-death'] !== undefined) headers['x-death'] = raw['x-death'];
      const properties: Options.Publish = {
        headers,
        persistent: msg.properties.deliveryMode === 2,
        ...(plan.expiration !== undefined ? { expiration: plan.expiration } : {}),
      };
      await republishThenAck(this.pub as ConfirmChannel, ch, msg, {
        exchange: plan.exchange,
        routingKey: plan.routingKey,
        properties,
      });
      return;
    }
    // hold (a batch consumer) is not rehearsed on a broker: settle as an ack so nothing is stuck
    settleDelivery(ch, msg, { kind: 'ack' });
  }
}
