/** Counts per second of rehearsal time (publishes, dead-letterings, deliveries, retries): their peak and when. */
export class PerSecond {
  private bins = new Float64Array(64);
  private top = -1;

  /** `w` events at `t`, or spread evenly over [t, t + spanMs) (a cohort's messages) */
  add(t: number, w: number, spanMs = 0): void {
    if (spanMs > 0) {
      const end = t + spanMs;
      for (let a = t; a < end;) {
        const b = Math.min(end, (Math.floor(a / 1000) + 1) * 1000);
        this.addAt(a, (w * (b - a)) / spanMs);
        a = b;
      }
      return;
    }
    this.addAt(t, w);
  }

  private addAt(t: number, w: number): void {
    const i = Math.max(0, Math.floor(t / 1000));
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

  /** the busiest second: its count and its start (ms) */
  peak(): { readonly perSec: number; readonly atMs: number } {
    let best = 0;
    let at = 0;
    for (let i = 0; i <= this.top; i++)
      if ((this.bins[i] as number) > best) {
        best = this.bins[i] as number;
        at = i * 1000;
      }
    return { perSec: Math.round(best), atMs: at };
  }

  /** the seconds with at least `atLeast` events: how many, and their median count */
  secondsAtLeast(atLeast: number): { readonly count: number; readonly median: number } {
    const counts: number[] = [];
    for (let i = 0; i <= this.top; i++) if ((this.bins[i] as number) >= atLeast) counts.push(this.bins[i] as number);
    counts.sort((a, b) => a - b);
    return { count: counts.length, median: counts[Math.floor(counts.length / 2)] ?? 0 };
  }
}
