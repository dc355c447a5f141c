/**
 * One queue's state: ready messages in a deque (head index, no shift), a quorum queue's
 * `returns` (served first when a delivery limit is set), unacked count, consumers, and the
 * one expiry timer (expiry is checked only at the head, as RabbitMQ does).
 */
import { Deque } from './deque.js';
import type { Msg } from './types.js';
import type { QueueConfig } from './queueConfig.js';

export interface QEntry {
  readonly msg: Msg;
  /** absolute virtual ms at which it expires; Infinity without a TTL */
  readonly expiresAt: number;
  /** enqueue order: a classic queue requeues to this position */
  pos: number;
  /** quorum delivery_count (returns) */
  deliveryCount: number;
  redelivered: boolean;
}

export interface ConsumerSlot {
  readonly id: string;
  readonly prefetch: number;
  inflight: number;
}

export class QueueState {
  readonly ready = new Deque<QEntry>();
  readonly returns = new Deque<QEntry>();
  readyBytes = 0;
  unacked = 0;
  nextPos = 0;
  rr = 0;
  readonly consumers: ConsumerSlot[] = [];
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
