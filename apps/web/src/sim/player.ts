/**
 * The playback clock. Deliberately outside React and the store: it changes every frame, and
 * only the canvas overlay reads it every frame. Panels subscribe to a throttled tick.
 */
import { compilePlayback, displayAt, virtualAt, type PlaybackPlan } from './compilePlayback';
import type { SimEvent } from '@retry-studio/topology-core';

export type RunSource = 'sim' | 'live';

type Listener = () => void;

export class Player {
  /** display ms */
  p = 0;
  playing = false;
  speed = 1;
  /** start over at the end (the stress route loops for the bench) */
  loop = false;
  plans: { sim: PlaybackPlan | null; live: PlaybackPlan | null } = { sim: null, live: null };
  private listeners = new Set<Listener>();
  private lastEmit = 0;

  load(source: RunSource, events: readonly SimEvent[] | null): void {
    this.plans[source] = events ? compilePlayback(events, this.speed) : null;
    this.emit(true);
  }

  get endP(): number {
    return Math.max(this.plans.sim?.endP ?? 0, this.plans.live?.endP ?? 0);
  }

  /** Virtual ms on the clock (of the simulated run, else the live one). */
  get virtualNow(): number {
    const plan = this.plans.sim ?? this.plans.live;
    return plan ? virtualAt(plan, this.p) : 0;
  }

  setSpeed(speed: number): void {
    const plan = this.plans.sim ?? this.plans.live;
    const t = plan ? virtualAt(plan, this.p) : 0;
    this.speed = speed;
    for (const k of ['sim', 'live'] as const) {
      const pl = this.plans[k];
      if (pl) this.plans[k] = compilePlayback(pl.events, speed);
    }
    const np = this.plans.sim ?? this.plans.live;
    if (np) this.p = displayAt(np, t);
    this.emit(true);
  }

  play(): void {
    if (this.p >= this.endP) this.p = 0;
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

  /** Jump to the next event of the simulated (else live) run. */
  step(): void {
    this.playing = false;
    const plan = this.plans.sim ?? this.plans.live;
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

export const player = new Player();
