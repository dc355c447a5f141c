/**
 * What one queue can do per second, from the calibration's ceilings, during a rehearsal:
 * - deliveries: a queue hands out deliveries at its ceiling (deliver+ack; requeue for a
 *   redelivery), a second's worth at once, so under sustained overload a delivery waits its turn. A hot loop (an immediate requeue that fails at
 *   once, which 4.3 never counts toward a delivery limit) runs at the broker's rate for as long as
 *   it lasts, and the rest of the load still arrives;
 * - publishes: the load's publisher goes at most at the lowest publish ceiling (the publish gate);
 * - dead-letterings: their busiest second per queue, set beside the ceiling;
 * - loops: queues whose redeliveries ran at their ceiling for LOOP_MIN_S seconds or more.
 */
import type { SimEvent } from '../sim/events.js';
import { PerSecond } from './rates.js';

export interface QueueCeilings {
  readonly deliverAckPerSec: number;
  readonly requeuePerSec: number;
  readonly deadLetterPerSec: number;
  readonly publishPerSec: number;
}

export interface HotLoop {
  readonly queue: string;
  /** the redeliveries per second while it ran at the ceiling (the median second) */
  readonly deliveriesPerSecond: number;
  /** how long it ran at the ceiling, ms */
  readonly forMs: number;
}

export interface CapacityShortfall {
  readonly queue: string;
  readonly operation: 'deliver' | 'dead-letter' | 'publish';
  /** what the load asked for in its busiest second (deliver: what the queue did) */
  readonly peakPerSec: number;
  readonly ceilingPerSec: number;
  /** deliver: the longest a delivery waited for its turn, ms */
  readonly waitedMs?: number;
}

/** redeliveries at this share of the ceiling count as running at it */
const AT_CEILING = 0.8;
const LOOP_MIN_S = 10;
/** a delivery that waited longer than this for its turn is a shortfall */
const WAIT_SHORTFALL_MS = 1000;

interface LastDelivery {
  readonly queue: string;
  readonly redelivered: boolean;
  readonly w: number;
  readonly t: number;
}

/** a queue takes a burst of up to one second's work at once; beyond that, deliveries wait their turn */
const BURST_MS = 1000;

export class Capacity {
  private readonly nextFree = new Map<string, number>();
  private readonly maxWait = new Map<string, number>();
  private readonly redeliveries = new Map<string, PerSecond>();
  private readonly deliveries = new Map<string, PerSecond>();
  private readonly deadLetters = new Map<string, PerSecond>();
  private last: LastDelivery | undefined;

  /** `binMs`: the rehearsal's per-second windows (wider than a second on a long run, rates.ts) */
  constructor(
    private readonly ceilings: ReadonlyMap<string, QueueCeilings>,
    private readonly binMs = 1000,
  ) {}

  private of(m: Map<string, PerSecond>, queue: string): PerSecond {
    let p = m.get(queue);
    if (!p) m.set(queue, (p = new PerSecond(this.binMs)));
    return p;
  }

  /** every event of the run, with its weight and spread (a cohort's) */
  see(e: SimEvent, w: number, spanMs: number): void {
    switch (e.kind) {
      case 'delivered':
        this.last = { queue: e.queue, redelivered: e.redelivered, w, t: e.t };
        break;
      case 'dead-lettered':
        this.of(this.deadLetters, e.queue).add(e.t, w, spanMs);
        break;
      default:
        break;
    }
  }

  /**
   * Called as the delivery just seen starts processing: how long it waits for its queue's turn. A
   * queue's work is paced at its ceiling (a virtual clock `nextFree` that each delivery moves on by
   * its share of a second), with a burst of BURST_MS allowed: only sustained overload waits.
   */
  waitMs(): number {
    const d = this.last;
    this.last = undefined;
    if (!d) return 0;
    const c = this.ceilings.get(d.queue);
    if (!c) return 0;
    const rate = d.redelivered ? c.requeuePerSec : c.deliverAckPerSec;
    const t = d.t;
    const free = Math.max(t, this.nextFree.get(d.queue) ?? 0) + (d.w * 1000) / rate;
    this.nextFree.set(d.queue, free);
    const wait = Math.max(0, free - t - BURST_MS);
    this.of(d.redelivered ? this.redeliveries : this.deliveries, d.queue).add(t + wait, d.w);
    if (wait > (this.maxWait.get(d.queue) ?? 0)) this.maxWait.set(d.queue, wait);
    return wait;
  }

  /** the earliest a publish of `w` messages may go after the previous one (the lowest publish ceiling) */
  publishGapMs(w: number): number {
    let min = Infinity;
    for (const c of this.ceilings.values()) min = Math.min(min, c.publishPerSec);
    return Number.isFinite(min) ? (w * 1000) / min : 0;
  }

  loops(): HotLoop[] {
    const out: HotLoop[] = [];
    for (const [queue, p] of this.redeliveries) {
      const c = this.ceilings.get(queue);
      if (!c) continue;
      const s = p.secondsAtLeast(AT_CEILING * c.requeuePerSec);
      if (s.count >= LOOP_MIN_S) out.push({ queue, deliveriesPerSecond: Math.round(s.median), forMs: s.count * 1000 });
    }
    return out;
  }

  /**
   * Where the load asked for more than a queue's ceiling: deliveries that waited their turn,
   * dead-letterings beyond the ceiling, and (`publishWaited`) the load's publishes held back at
   * the lowest publish ceiling.
   */
  shortfalls(publishWaited?: {
    readonly messages: number;
    readonly longestMs: number;
    readonly ratePerSec: number;
  }): CapacityShortfall[] {
    const out: CapacityShortfall[] = [];
    if (publishWaited && publishWaited.messages > 0) {
      let min = Infinity;
      for (const c of this.ceilings.values()) min = Math.min(min, c.publishPerSec);
      out.push({
        queue: '(the load)',
        operation: 'publish',
        peakPerSec: Math.round(publishWaited.ratePerSec),
        ceilingPerSec: Math.round(min),
        waitedMs: Math.round(publishWaited.longestMs),
      });
    }
    for (const [queue, c] of this.ceilings) {
      const waited = this.maxWait.get(queue) ?? 0;
      if (waited > WAIT_SHORTFALL_MS) {
        const d = this.deliveries.get(queue)?.peak().perSec ?? 0;
        const r = this.redeliveries.get(queue)?.peak().perSec ?? 0;
        out.push({
          queue,
          operation: 'deliver',
          peakPerSec: Math.max(d, r),
          ceilingPerSec: Math.round(r > d ? c.requeuePerSec : c.deliverAckPerSec),
          waitedMs: Math.round(waited),
        });
      }
      const dl = this.deadLetters.get(queue)?.peak().perSec ?? 0;
      if (dl > c.deadLetterPerSec)
        out.push({ queue, operation: 'dead-letter', peakPerSec: dl, ceilingPerSec: Math.round(c.deadLetterPerSec) });
    }
    return out;
  }
}
