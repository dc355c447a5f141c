/**
 * The Pareto front of the feasible candidates: delay (p99, under the longest outage) against
 * amplification and peak memory. A point is on the front when no other is at least as good on all
 * three and better on one.
 */
import type { ParetoPoint } from './types.js';

const dominates = (a: ParetoPoint, b: ParetoPoint): boolean =>
  a.p99DelayMs <= b.p99DelayMs &&
  a.amplification <= b.amplification &&
  a.peakMemoryBytes <= b.peakMemoryBytes &&
  (a.p99DelayMs < b.p99DelayMs || a.amplification < b.amplification || a.peakMemoryBytes < b.peakMemoryBytes);

export function paretoFront(points: readonly ParetoPoint[]): ParetoPoint[] {
  return points
    .filter((p) => !points.some((q) => q !== p && dominates(q, p)))
    .sort((a, b) => a.p99DelayMs - b.p99DelayMs || a.amplification - b.amplification);
}
