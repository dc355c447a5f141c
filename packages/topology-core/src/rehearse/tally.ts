/**
 * Reads a rehearsal's simulator events as they happen and counts them with their weights (a
 * cohort's event counts for each of its messages): outcomes, deliveries, delays, depths and
 * broker operations per second. The outcomes are the messages' fates as every place states them:
 * the events go through the copy ledger, and a message is counted once, by decideOutcome, when its
 * fate is final (its ledger entry is then let go) or, still resting or moving, when the run ends.
 */
import type { SimEvent } from '../sim/events.js';
import { CopyLedger } from '../sim/copyLedger.js';
import type { MessageCopies } from '../sim/messageCopies.js';
import type { FateRules } from '../sim/eventOutcomes.js';
import { decideOutcome, type MessageOutcome, type OutcomeKind } from '../sim/messageOutcome.js';
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
  /** the per-second counts' window (rates.ts: wider than 1 s only for very long runs) */
  readonly perSecondBinMs?: number;
  /** how the design's events are read for fates */
  readonly rules: FateRules;
  /** told every depth change (the broker's bill) */
  readonly onDepthChange?: DepthListener;
  /** told every change in what a delayed-message exchange holds */
  readonly onExchangeHeld?: HoldListener;
}

/** How the rehearsal's outcomes count a message's fate (a new outcome kind is placed here once). */
const OUTCOME_OF: Readonly<Record<OutcomeKind, 'acked' | 'parked' | 'dropped' | 'expired' | 'inFlight'>> = {
  acked: 'acked',
  parked: 'parked',
  moving: 'inFlight',
  held: 'inFlight',
  dropped: 'dropped',
  limit: 'dropped',
  'publish-nacked': 'dropped',
  // the application gave up and acked it: lost like a drop
  discarded: 'dropped',
  returned: 'dropped',
  expired: 'expired',
};

/** Which of the rehearsal's outcomes a message's fate counts in (no fate known: still on its way). */
export function countedAs(o: MessageOutcome | undefined): 'acked' | 'parked' | 'dropped' | 'expired' | 'inFlight' {
  return o ? OUTCOME_OF[o.kind] : 'inFlight';
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
  readonly publishes: PerSecond;
  readonly deadLetters: PerSecond;
  readonly deliveriesPerSec: PerSecond;
  readonly retries: PerSecond;
  /** messages by fate (weighted); parked and inFlight are counted when the run ends (finishOutcomes) */
  acked = 0;
  dropped = 0;
  expired = 0;
  parked = 0;
  readonly parkedIn: Record<string, number> = {};
  inFlight = 0;
  deliveries = 0;
  /** the messages' copies as they ended (weighted): more than the messages where a fan-out copied them */
  copyCount = 0;
  /** the copies of the messages whose fate is not final yet, by message number (the plan numbers them) */
  private readonly ledger: CopyLedger;
  private readonly copies: (MessageCopies | undefined)[] = [];
  /** messages the current instant touched: their fate is final once it is over (one instant's events belong together) */
  private touched: number[] = [];
  private readonly held: DelayedExchangeHolds;
  /** events at the current instant: a loop that lets no time pass is stopped (SpinError) */
  private instant = -1;
  private atInstant = 0;

  constructor(private readonly o: TallyOptions) {
    this.depths = new QueueDepths(o.queues, o.sampleMs, o.steadyUntil, o.drainFrom, o.onDepthChange);
    const binMs = o.perSecondBinMs ?? 1000;
    this.publishes = new PerSecond(binMs);
    this.deadLetters = new PerSecond(binMs);
    this.deliveriesPerSec = new PerSecond(binMs);
    this.retries = new PerSecond(binMs);

    this.ledger = new CopyLedger({
      streams: o.rules.streams,
      ...(o.rules.workConsumers ? { workConsumers: o.rules.workConsumers } : {}),
      paths: false,
    });
    this.held = new DelayedExchangeHolds(o.onExchangeHeld);
  }

  get heldInDelayedExchanges(): number {
    return this.held.total;
  }

  readonly onEvent = (e: SimEvent): void => {
    const t = e.t;
    if (t !== this.instant) {
      this.settleTouched();
      this.instant = t;
      this.atInstant = 0;
    } else if (++this.atInstant > this.o.maxEventsPerInstant) throw new SpinError(t);
    this.depths.advance(t);
    // msgId is the message's (or cohort's) number in the plan, 1-based
    const m = Number(e.msgId);
    const w = this.o.plan.weight[m - 1] ?? 0;
    const span = this.o.plan.spanMs[m - 1] ?? 0;
    const copies = (this.copies[m] ??= this.ledger.fresh());
    // the queue whose copies of it the event may change (its depth follows the ledger)
    let q: string | undefined;
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
        q = e.queue;
        break;
      case 'delivered':
        this.deliveries += w;
        this.deliveriesPerSec.add(t, w, span);
        break;
      case 'processed':
        if (e.attempt > 1) this.retries.add(t, w, span);
        if (e.ok) this.delayAt(m, e.consumer, w, t);
        break;
      case 'acked':
      case 'rejected':
        q = e.queue;
        break;
      case 'expired':
        this.depths.markTimed(e.queue);
        break;
      case 'dead-lettered':
        this.deadLetters.add(t, w, span);
        q = e.queue;
        break;
      case 'dropped':
        q = e.queue;
        break;
      default:
        break;
    }
    const before = q === undefined ? 0 : copies.heldIn(q);
    copies.apply(e);
    if (q !== undefined) {
      const d = copies.heldIn(q) - before;
      if (d !== 0) this.depths.change(q, d * w);
    }
    if (copies.settled) this.touched.push(m);
  };

  /** the messages whose fate the last instant made final: counted, their entries let go */
  private settleTouched(): void {
    for (const m of this.touched) {
      const copies = this.copies[m];
      if (!copies?.settled) continue;
      this.count(
        decideOutcome(copies, { truncated: false, endTime: this.instant }),
        this.o.plan.weight[m - 1] ?? 0,
        copies,
      );
      this.copies[m] = undefined;
      this.ledger.release(copies);
    }
    this.touched.length = 0;
  }

  private count(o: MessageOutcome | undefined, w: number, c: MessageCopies): void {
    // its copies as they ended: processed, dropped, or still resting (a fan-out makes more than one)
    let n = c.processed + c.drops;
    for (const k of c.ready.values()) n += k;
    this.copyCount += Math.max(1, n) * w;
    const as = countedAs(o);
    if (as === 'parked' && o?.kind === 'parked')
      for (const q of [o.queue, ...(o.also ?? [])]) this.parkedIn[q] = (this.parkedIn[q] ?? 0) + w;
    this[as] += w;
  }

  /**
   * The run ended at `endT`: the messages whose fate is not final are counted as they are (the
   * run goes on in the broker: a copy at a consumer, between queues or where a consumer or a TTL
   * moves it on is in flight; one resting where nothing moves it is parked).
   */
  finishOutcomes(endT: number): void {
    this.settleTouched();
    const { active, deadLettering, rank } = this.o.rules;
    const isActive = (q: string): boolean => active.has(q);
    this.copies.forEach((copies, m) => {
      if (!copies) return;
      const o = decideOutcome(copies, {
        truncated: copies.onItsWay(true, isActive),
        endTime: endT,
        active: isActive,
        deadLettering: (q) => deadLettering.has(q),
        rank,
      });
      this.count(o, this.o.plan.weight[m - 1] ?? 0, copies);
    });
    this.copies.length = 0;
  }

  /** publish to ack, of a successful processing */
  private delayAt(m: number, consumer: string, w: number, t: number): void {
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
