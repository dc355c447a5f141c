/**
 * The Pareto front of the feasible candidates: delay (p99, under the longest outage) against
 * amplification and peak memory. A point is on the front when no other is at least as good on all
 * three and better on one. Points whose figures show the same (p99 to the ms, amplification to two
 * decimals, memory to 0.1 MiB) are one entry, the others listed as equivalent.
 */
import type { ParetoPoint } from './types.js';

const dominates = (a: ParetoPoint, b: ParetoPoint): boolean =>
  a.p99DelayMs <= b.p99DelayMs &&
  a.amplification <= b.amplification &&
  a.peakMemoryBytes <= b.peakMemoryBytes &&
  (a.p99DelayMs < b.p99DelayMs || a.amplification < b.amplification || a.peakMemoryBytes < b.peakMemoryBytes);

/** the figures as they are shown: points that show the same are one entry */
const shown = (p: ParetoPoint): string =>
  `${Math.round(p.p99DelayMs)} ${p.amplification.toFixed(2)} ${Math.round(p.peakMemoryBytes / 104_858)}`;

export function paretoFront(points: readonly ParetoPoint[]): ParetoPoint[] {
  const front = points
    .filter((p) => !points.some((q) => q !== p && dominates(q, p)))
    .sort((a, b) => a.p99DelayMs - b.p99DelayMs || a.amplification - b.amplification);
  const byFigures = new Map<string, { first: ParetoPoint; more: ParetoPoint[] }>();
  for (const p of front) {
    const k = shown(p);
    const g = byFigures.get(k);
    if (g) g.more.push(p);
    else byFigures.set(k, { first: p, more: [] });
  }
  return [...byFigures.values()].map(({ first, more }) =>
    more.length === 0 ? first : { ...first, equivalent: more.map((m) => ({ strategy: m.strategy, params: m.params })) },
  );
}
