/**
 * Counts per second of rehearsal time (publishes, dead-letterings, deliveries, retries): their peak
 * and when. A run longer than MAX_BINS seconds counts in wider windows (a whole number of seconds)
 * and reports each window's average per second: `tune --duration 1000000h` allocated 21 GB of
 * one-second bins before failing.
 */
export const MAX_BINS = 1 << 20;

/** the window a run of `horizonMs` is counted in: 1 s, or wider to stay within MAX_BINS */
export const perSecondBinMs = (horizonMs: number): number =>
  Math.max(1000, Math.ceil(horizonMs / MAX_BINS / 1000) * 1000);

export class PerSecond {
  private bins = new Float64Array(64);
  private top = -1;

  constructor(private readonly binMs = 1000) {}

  /** `w` events at `t`, or spread evenly over [t, t + spanMs) (a cohort's messages) */
  add(t: number, w: number, spanMs = 0): void {
    if (spanMs > 0) {
      const end = t + spanMs;
      for (let a = t; a < end;) {
        const b = Math.min(end, (Math.floor(a / this.binMs) + 1) * this.binMs);
        this.addAt(a, (w * (b - a)) / spanMs);
        a = b;
      }
      return;
    }
    this.addAt(t, w);
  }

  private addAt(t: number, w: number): void {
    const i = Math.max(0, Math.floor(t / this.binMs));
    if (i >= this.bins.length) {
      let n = this.bins.length;
      while (n <= i) n *= 2;
      const b = new Float64Array(n);
      b.set(this.bins);
      this.bins = b;
    }
    this.bins[i] = (this.bins[i] as number) + w;
    if (i > this.top) this.top = i;
  }

  /** the busiest second (the busiest window's average per second): its count and its start (ms) */
  peak(): { readonly perSec: number; readonly atMs: number } {
    let best = 0;
    let at = 0;
    for (let i = 0; i <= this.top; i++)
      if ((this.bins[i] as number) > best) {
        best = this.bins[i] as number;
        at = i * this.binMs;
      }
    return { perSec: Math.round((best * 1000) / this.binMs), atMs: at };
  }

  /**
   * the seconds with at least `atLeast` events per second (a wider window counts as its seconds, at
   * its average): how many, and their median per-second count
   */
  secondsAtLeast(atLeast: number): { readonly count: number; readonly median: number } {
    const perSec: number[] = [];
    const scale = 1000 / this.binMs;
    for (let i = 0; i <= this.top; i++) {
      const r = (this.bins[i] as number) * scale;
      if (r >= atLeast) perSec.push(r);
    }
    perSec.sort((a, b) => a - b);
    return { count: perSec.length / scale, median: perSec[Math.floor(perSec.length / 2)] ?? 0 };
  }
}
