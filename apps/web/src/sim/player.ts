/**
 * The playback clock. Deliberately outside React and the store: it changes every frame, and
 * only the canvas overlay reads it every frame. Panels subscribe to a throttled tick.
 *
 * With a live trace loaded the clock is the broker's (compilePlayback's broker time, for the
 * live run and the prediction beside it): at 1x the replay takes as long as the broker took and
 * ends with its last event. A simulation alone plays as a story (hops drawn one by one).
 */
import {
  compilePlayback,
  displayAt,
  HOP_MS,
  virtualAt,
  type PlaybackOptions,
  type PlaybackPlan,
} from './compilePlayback';
import type { SimEvent } from '@retry-studio/topology-core/sim';

export type RunSource = 'sim' | 'live';

type Listener = () => void;

/** how a run is read against its design (compilePlayback's options that come from the design) */
export type RunReading = Pick<PlaybackOptions, 'fates' | 'drawnNode'>;

export class Player {
  /** display ms */
  p = 0;
  playing = false;
  speed = 1;
  /** start over at the end (the stress route loops for the bench) */
  loop = false;
  plans: { sim: PlaybackPlan | null; live: PlaybackPlan | null } = { sim: null, live: null };
  /** each run's reading of the design: its fate rules and whether the run goes on (a token's fate is its lane's), its drawn nodes */
  private reading: Record<RunSource, RunReading | undefined> = { sim: undefined, live: undefined };
  private listeners = new Set<Listener>();
  private lastEmit = 0;

  /**
   * `reading.fates`: the design's fate rules (the core's fateRulesOf) and whether the run goes on: without them
   * a copy waiting in a consumed queue would play "parked" where its lane says "moving".
   */
  load(source: RunSource, events: readonly SimEvent[] | null, reading?: RunReading): void {
    const brokerTime = source === 'live' ? events !== null : this.plans.live !== null;
    this.reading[source] = reading;
    this.plans[source] = events ? this.compile(source, events, brokerTime) : null;
    // a live run coming or going changes the clock of the run beside it too
    const other = source === 'live' ? 'sim' : 'live';
    const o = this.plans[other];
    if (o && o.brokerTime !== brokerTime) this.plans[other] = this.compile(other, o.events, brokerTime);
    this.emit(true);
  }

  private compile(source: RunSource, events: readonly SimEvent[], brokerTime: boolean): PlaybackPlan {
    return compilePlayback(events, this.speed, { brokerTime, ...this.reading[source] });
  }

  /** the clock is the broker's: a live run is loaded */
  get brokerTime(): boolean {
    return this.plans.live !== null;
  }

  /** the run the clock and the event count read: the live one when there is one (what the broker did), else the simulation */
  get clockPlan(): PlaybackPlan | null {
    return this.plans.live ?? this.plans.sim;
  }

  get endP(): number {
    return Math.max(this.plans.sim?.endP ?? 0, this.plans.live?.endP ?? 0);
  }

  /** Virtual ms on the clock (of the live run, else the simulated one). */
  get virtualNow(): number {
    const plan = this.clockPlan;
    if (!plan) return 0;
    // broker time is one line for both runs: the clock runs on past the live run's end while the prediction plays
    if (plan.brokerTime) return Math.min(this.virtualEnd, Math.max(0, (this.p - HOP_MS) * this.speed));
    return virtualAt(plan, this.p);
  }

  /** Virtual ms of the last event (in broker time, of either run: they share the clock). */
  get virtualEnd(): number {
    if (this.brokerTime) return Math.max(this.plans.live?.endT ?? 0, this.plans.sim?.endT ?? 0);
    return this.clockPlan?.endT ?? 0;
  }

  /**
   * How many events of the clock's run (live, else simulated) have happened by now, and how many
   * there are: in a story zero-time hops take display time while virtual time stands still, so
   * the clock alone would sit at "t = 0 ms" for seconds.
   */
  get eventProgress(): { done: number; total: number } {
    const plan = this.clockPlan;
    if (!plan) return { done: 0, total: 0 };
    let sorted = this.sortedP.get(plan);
    if (!sorted) this.sortedP.set(plan, (sorted = Float64Array.from(plan.eventP).sort()));
    return { done: countAtOrBefore(sorted, this.p + 0.5), total: sorted.length };
  }
  private sortedP = new WeakMap<PlaybackPlan, Float64Array>();

  setSpeed(speed: number): void {
    const plan = this.clockPlan;
    const t = plan ? virtualAt(plan, this.p) : 0;
    this.speed = speed;
    for (const k of ['sim', 'live'] as const) {
      const pl = this.plans[k];
      if (pl) this.plans[k] = this.compile(k, pl.events, pl.brokerTime);
    }
    const np = this.clockPlan;
    if (np) this.p = displayAt(np, t);
    this.emit(true);
  }

  play(): void {
    if (this.p >= this.endP) this.p = 0;
    this.playing = true;
    this.emit(true);
  }
  /** Plays on from here as more of a live run arrives (never back to the start, unlike play at the end). */
  follow(): void {
    if (this.playing || this.p >= this.endP) return;
    this.playing = true;
    this.emit(true);
  }
  pause(): void {
    this.playing = false;
    this.emit(true);
  }
  reset(): void {
    this.playing = false;
    this.p = 0;
    this.emit(true);
  }
  seek(p: number): void {
    this.p = Math.max(0, Math.min(p, this.endP));
    this.emit(true);
  }

  /** Jump to the next event of the clock's run. */
  step(): void {
    this.playing = false;
    const plan = this.clockPlan;
    if (!plan) return;
    let next = Infinity;
    // the next display instant strictly after now (event display times are sorted per instant)
    for (let i = 0; i < plan.eventP.length; i++) {
      const v = plan.eventP[i]!;
      if (v > this.p + 0.5 && v < next) next = v;
    }
    this.p = next === Infinity ? this.endP : next;
    this.emit(true);
  }

  /** Called by the one rAF loop. */
  advance(dtMs: number): void {
    if (!this.playing) return;
    this.p += dtMs;
    if (this.p >= this.endP && this.loop) {
      this.p = 0;
      return;
    }
    if (this.p >= this.endP) {
      this.p = this.endP;
      this.playing = false;
      this.emit(true);
      return;
    }
    this.emit(false);
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastEmit < 100) return;
    this.lastEmit = now;
    for (const l of this.listeners) l();
  }
}

/** Entries of the ascending `xs` that are <= x. */
export function countAtOrBefore(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const player = new Player();
