/**
 * Reads a rehearsal's simulator events as they happen and counts them with their weights (a
 * cohort's event counts for each of its messages): outcomes, deliveries, delays, depths and
 * broker operations per second.
 */
import type { SimEvent } from '../sim/events.js';
import type { PublishPlan } from './cohorts.js';
import { DelayRecorder } from './delays.js';
import { PerSecond } from './rates.js';
import { DelayedExchangeHolds, type HoldListener } from './held.js';
import { QueueDepths, type DepthListener } from './queueDepths.js';

export interface TallyOptions {
  readonly plan: PublishPlan;
  readonly queues: readonly string[];
  readonly sampleMs: number;
  readonly steadyUntil: number;
  readonly drainFrom: number;
  /**
   * per consumer, the processing time of one message when a cohort keeps the consumer busy
   * for all of its messages (bounded concurrency): its messages finish one after another, so
   * their delays are spread back over that time
   */
  readonly spreadMsOf?: (consumer: string) => number;
  /** more events than this at one virtual instant is a loop that lets no time pass */
  readonly maxEventsPerInstant: number;
  /** told every depth change (the broker's bill) */
  readonly onDepthChange?: DepthListener;
  /** told every change in what a delayed-message exchange holds */
  readonly onExchangeHeld?: HoldListener;
}

/** messages go round without virtual time passing (an immediate requeue with no processing time): the run cannot end */
export class SpinError extends Error {
  constructor(readonly atMs: number) {
    super(`messages loop without time passing at ${atMs} ms`);
  }
}

/** a cohort's delays are spread over at most this many points */
const SPREAD_POINTS = 8;

export class Tally {
  readonly depths: QueueDepths;
  readonly delays = new DelayRecorder();
  readonly publishes = new PerSecond();
  readonly deadLetters = new PerSecond();
  readonly deliveriesPerSec = new PerSecond();
  readonly retries = new PerSecond();
  acked = 0;
  dropped = 0;
  expired = 0;
  deliveries = 0;
  private readonly held: DelayedExchangeHolds;
  private lastExpired = '';
  /** events at the current instant: a loop that lets no time pass is stopped (SpinError) */
  private instant = -1;
  private atInstant = 0;

  constructor(private readonly o: TallyOptions) {
    this.depths = new QueueDepths(o.queues, o.sampleMs, o.steadyUntil, o.drainFrom, o.onDepthChange);
    this.held = new DelayedExchangeHolds(o.onExchangeHeld);
  }

  get heldInDelayedExchanges(): number {
    return this.held.total;
  }

  readonly onEvent = (e: SimEvent): void => {
    const t = e.t;
    if (t !== this.instant) {
      this.instant = t;
      this.atInstant = 0;
    } else if (++this.atInstant > this.o.maxEventsPerInstant) throw new SpinError(t);
    this.depths.advance(t);
    // msgId is the message's (or cohort's) number in the plan, 1-based
    const m = Number(e.msgId);
    const w = this.o.plan.weight[m - 1] ?? 0;
    const span = this.o.plan.spanMs[m - 1] ?? 0;
    switch (e.kind) {
      case 'published':
        this.publishes.add(t, w, span);
        break;
      case 'delayed':
        this.held.delayed(e.exchange, e.msgId, w, t);
        break;
      case 'routed':
        this.held.routed(e.exchange, e.msgId, w, t);
        break;
      case 'enqueued':
        if (e.expiresAt !== undefined) this.depths.markTimed(e.queue);
        this.depths.enter(e.queue, m, w);
        break;
      case 'delivered':
        this.deliveries += w;
        this.deliveriesPerSec.add(t, w, span);
        break;
      case 'processed':
        if (e.attempt > 1) this.retries.add(t, w, span);
        if (e.ok) this.ackedAt(m, e.consumer, w, t);
        break;
      case 'acked':
      case 'rejected':
        this.depths.leave(e.queue, m, w);
        break;
      case 'expired':
        this.depths.markTimed(e.queue);
        this.depths.leave(e.queue, m, w);
        this.lastExpired = `${t}\n${e.msgId}`;
        break;
      case 'dead-lettered':
        this.deadLetters.add(t, w, span);
        this.depths.leave(e.queue, m, w);
        break;
      case 'dropped': {
        const wasThere = e.queue !== undefined && this.depths.leave(e.queue, m, w);
        // reject-publish: never in the queue, the publish-nacked event counted it
        if (e.why === 'overflow' && !wasThere) break;
        if (e.why === 'no-dlx' && this.lastExpired === `${t}\n${e.msgId}`) this.expired += w;
        else this.dropped += w;
        break;
      }
      case 'publish-nacked':
        this.dropped += w;
        break;
      default:
        break;
    }
  };

  private ackedAt(m: number, consumer: string, w: number, t: number): void {
    this.acked += w;
    const delay = t - (this.o.plan.publishAt[m - 1] as number);
    const per = this.o.spreadMsOf?.(consumer) ?? 0;
    if (per <= 0 || w <= 1) {
      this.delays.add(delay, w);
      return;
    }
    // the cohort's messages finished one processing time apart, the last at t
    const points = Math.min(SPREAD_POINTS, Math.ceil(w));
    const span = (w - 1) * per;
    for (let i = 0; i < points; i++)
      this.delays.add(Math.max(0, delay - span + (points === 1 ? span : (span * i) / (points - 1))), w / points);
  }
}
