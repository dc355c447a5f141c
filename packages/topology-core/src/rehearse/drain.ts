/**
 * Drain: from the end of the last consumer outage until every retry-path queue (and what the
 * delayed-message exchanges hold) is back within the band of a baseline run of the same load
 * without the outage, for good. The band at an instant is the baseline's highest value within
 * BAND_WINDOW_MS of it, plus a tolerance (cohorts: two of the biggest): a load with random errors
 * keeps its retry queues busy in the baseline too, and the drain is measured against that, not
 * against an empty queue.
 */
import type { DepthSeries } from './queueDepths.js';

export const BAND_WINDOW_MS = 5000;

/** the highest of `xs` within `k` samples either side of each sample (a sliding window) */
function windowMax(xs: readonly number[], k: number, n: number): Float64Array {
  const out = new Float64Array(n);
  const dq: number[] = [];
  let head = 0;
  for (let i = 0; i < n + k; i++) {
    if (i < xs.length) {
      while (dq.length > head && (xs[dq[dq.length - 1]!] as number) <= (xs[i] as number)) dq.pop();
      dq.push(i);
    }
    const c = i - k;
    if (c < 0) continue;
    while (dq.length > head && dq[head]! < c - k) head++;
    if (c < n) out[c] = dq.length > head ? (xs[dq[head]!] as number) : 0;
  }
  return out;
}

/** the first instant (ms) from which `series` stays within the band of `baseline`, at or after `fromMs`; null when its last sample is above */
export function backWithinBand(
  series: DepthSeries,
  baseline: DepthSeries | undefined,
  fromMs: number,
  tolerance: number,
  stepMs: number,
): number | null {
  const n = series.t.length;
  if (n === 0) return fromMs;
  const k = Math.max(1, Math.ceil(BAND_WINDOW_MS / Math.max(1, stepMs)));
  const band = windowMax(baseline?.depth ?? [], k, n);
  let lastAbove = -1;
  for (let i = 0; i < n; i++)
    if ((series.t[i] as number) >= fromMs && (series.depth[i] as number) > (band[i] as number) + tolerance)
      lastAbove = i;
  if (lastAbove < 0) return fromMs;
  if (lastAbove === n - 1) return null;
  return series.t[lastAbove + 1] as number;
}

/** the drain over every series named, against the baseline's series of the same name */
export function drainAgainstBaseline(
  run: ReadonlyMap<string, DepthSeries>,
  baseline: ReadonlyMap<string, DepthSeries>,
  fromMs: number,
  tolerance: number,
  stepMs: number,
): number | null {
  let drainedAt = fromMs;
  for (const [name, s] of run) {
    const back = backWithinBand(s, baseline.get(name), fromMs, tolerance, stepMs);
    if (back === null) return null;
    drainedAt = Math.max(drainedAt, back);
  }
  return drainedAt - fromMs;
}
