/** Publish-to-ack delays, weighted (a cohort's messages share one), and their percentiles by nearest rank. */
export interface DelayPercentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export class DelayRecorder {
  private delays = new Float64Array(1024);
  private weights = new Float64Array(1024);
  private n = 0;

  add(delay: number, weight: number): void {
    if (this.n === this.delays.length) {
      const d = new Float64Array(this.n * 2);
      d.set(this.delays);
      this.delays = d;
      const w = new Float64Array(this.n * 2);
      w.set(this.weights);
      this.weights = w;
    }
    this.delays[this.n] = delay;
    this.weights[this.n++] = weight;
  }

  /** null when nothing was acked */
  percentiles(): DelayPercentiles | null {
    const n = this.n;
    if (n === 0) return null;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const d = this.delays;
    order.sort((a, b) => (d[a] as number) - (d[b] as number));
    let total = 0;
    for (let i = 0; i < n; i++) total += this.weights[i] as number;
    // nearest rank: the smallest delay whose cumulative weight reaches p of the total
    const at = (p: number): number => {
      const goal = p * total - 1e-9;
      let cum = 0;
      for (let i = 0; i < n; i++) {
        cum += this.weights[order[i] as number] as number;
        if (cum >= goal) return d[order[i] as number] as number;
      }
      return d[order[n - 1] as number] as number;
    };
    return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: d[order[n - 1] as number] as number };
  }
}
