/**
 * One queue's state: ready messages in a deque (head index, no shift), a quorum queue's
 * `returns` (served first when a delivery limit is set), unacked count, consumers, and the
 * one expiry timer (expiry is checked only at the head, as RabbitMQ does).
 */
import { Deque } from './deque.js';
import type { Msg } from './types.js';
import type { AmqpValue } from '../model/definitions.js';
import type { ConsumerAction } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { DeliveryView } from '../behaviour/evaluate.js';
import type { QueueConfig } from './queueConfig.js';

/**
 * A message in a queue. While a consumer holds it, the same object is the delivery (what the
 * consumer sees, DeliveryView) and the scheduled outcome: one allocation per enqueue.
 */
export class QEntry implements DeliveryView {
  /** work-item tag, on the prototype (no per-entry field) */
  get k(): 'outcome' {
    return 'outcome';
  }
  /** quorum delivery-count: returns (before 4.3), failed returns only (4.3: basic.reject, not basic.nack) */
  deliveryCount = 0;
  /** quorum acquired-count: every return (4.3 exposes it as x-acquired-count) */
  acquiredCount = 0;
  redelivered = false;
  /** the consumer chose `hold`: it stays unacked until a later `multiple` settles it */
  isHeld = false;
  /** while delivered: who holds it, the headers it was delivered with, its attempt number */
  consumer: ConsumerSlot | undefined = undefined;
  headers: { readonly [k: string]: AmqpValue };
  attempt = 0;
  /** in-process retry state (retryInProcess) */
  inProcess = 0;
  retry: Extract<ConsumerAction, { kind: 'retryInProcess' }> | undefined = undefined;

  constructor(
    public msg: Msg,
    /** absolute virtual ms at which it expires; Infinity without a TTL */
    public expiresAt: number,
    /** enqueue order: a classic queue requeues to this position */
    public pos: number,
  ) {
    this.headers = msg.headers;
  }

  /** reuse a released entry (the simulator pools them: fewer long-lived allocations) */
  reset(msg: Msg, expiresAt: number, pos: number): this {
    this.msg = msg;
    this.expiresAt = expiresAt;
    this.pos = pos;
    this.deliveryCount = 0;
    this.acquiredCount = 0;
    this.redelivered = false;
    this.isHeld = false;
    this.consumer = undefined;
    this.headers = msg.headers;
    this.attempt = 0;
    this.inProcess = 0;
    this.retry = undefined;
    return this;
  }

  get body(): string {
    return this.msg.body;
  }
  get xDeath(): readonly XDeathEntry[] | undefined {
    return this.msg.xDeath;
  }
  get routingKey(): string {
    return this.msg.routingKeys[0] ?? '';
  }
  get exchange(): string {
    return this.msg.exchange;
  }
  /** the `held` counter: what the consumer holds, this one included */
  get held(): number {
    return (this.consumer?.holding ?? 0) + 1;
  }

  /** a copy that carries on for this entry (the original stays with work already scheduled for it) */
  copy(): QEntry {
    const c = new QEntry(this.msg, this.expiresAt, this.pos);
    c.deliveryCount = this.deliveryCount;
    c.acquiredCount = this.acquiredCount;
    c.redelivered = this.redelivered;
    c.consumer = this.consumer;
    c.headers = this.headers;
    c.attempt = this.attempt;
    return c;
  }
}

export interface ConsumerSlot {
  readonly id: string;
  readonly prefetch: number;
  inflight: number;
  /** deliveries held (`hold`) and not yet settled */
  holding: number;
  /** unsettled deliveries in delivery-tag order; kept only for consumers that hold or settle `multiple` */
  readonly unsettled: QEntry[] | undefined;
}

export class QueueState {
  readonly ready = new Deque<QEntry>();
  readonly returns = new Deque<QEntry>();
  /** a stream's log, by offset (sim/stream.ts); empty for other queues */
  readonly log: Msg[] = [];
  readyBytes = 0;
  unacked = 0;
  nextPos = 0;
  /** a quorum queue with reject-publish that went over its limit: it refuses publishes until back under the soft limit (publishRoute.ts) */
  overflowing = false;
  rr = 0;
  readonly consumers: ConsumerSlot[] = [];
  /**
   * quorum at-least-once dead-lettering: messages held in the discard area because their DLX
   * (or a route from it) is missing. The docs say they count toward the length limit, but a
   * live 3.10.8 broker accepted a third publish over x-max-length 2 with two held: not counted.
   */
  retained = 0;
  /** time of the pending expiry check, Infinity when none */
  timerAt = Infinity;

  constructor(readonly cfg: QueueConfig) {}

  get readyCount(): number {
    return this.ready.length + this.returns.length;
  }

  head(): QEntry | undefined {
    return this.returns.peek() ?? this.ready.peek();
  }

  takeHead(): QEntry | undefined {
    const e = this.returns.length > 0 ? this.returns.shift() : this.ready.shift();
    if (e) this.readyBytes -= e.msg.bytes;
    return e;
  }

  /** ready entries head first */
  readyEntries(): QEntry[] {
    return [...this.returns.toArray(), ...this.ready.toArray()];
  }

  /** the next consumer with spare prefetch, round-robin */
  pickConsumer(): ConsumerSlot | undefined {
    const cs = this.consumers;
    const n = cs.length;
    for (let i = 0; i < n; i++) {
      const c = cs[(this.rr + i) % n] as ConsumerSlot;
      if (c.inflight < c.prefetch) {
        this.rr = (this.rr + i + 1) % n;
        return c;
      }
    }
    return undefined;
  }
}

export const entryPos = (e: QEntry): number => e.pos;
