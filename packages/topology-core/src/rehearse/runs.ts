/**
 * `--runs N`: the same load rehearsed with N seeds (the error and poison draws change, nothing
 * else does); every figure is reported as p5, p50 and p95 over the runs (nearest rank), beside the
 * first seed's report. A figure that is never reached in some runs (a drain that never ends) says
 * in how many.
 */
import type { Design } from '../model/design.js';
import type { RehearsalLoad } from './load.js';
import type { RehearsalReport } from './report.js';
import { rehearse, type RehearseOptions } from './rehearse.js';

export interface Spread {
  readonly p5: number;
  readonly p50: number;
  readonly p95: number;
  /** runs in which the figure was never reached (null), when any */
  readonly never?: number;
}

export interface RunsSummary {
  readonly count: number;
  readonly seeds: readonly number[];
  /** by figure, named as in the report: `outcomes.parked`, `delayMs.p99`, `queues.orders.wait.peakDepth`, ... */
  readonly figures: Readonly<Record<string, Spread>>;
}

/** the figures of one report, by name (null: never reached) */
export function figuresOf(r: RehearsalReport): Map<string, number | null> {
  const f = new Map<string, number | null>();
  for (const k of ['acked', 'parked', 'dropped', 'expired', 'inFlight'] as const) f.set(`outcomes.${k}`, r.outcomes[k]);
  f.set('deliveries', r.deliveries);
  f.set('amplification', r.amplification);
  for (const k of ['p50', 'p95', 'p99', 'max'] as const) f.set(`delayMs.${k}`, r.delayMs ? r.delayMs[k] : null);
  f.set('drainMs', r.drainMs);
  f.set('node.peakMemoryBytes', r.node.peakMemoryBytes);
  f.set('node.peakDiskBytes', r.node.peakDiskBytes);
  f.set('brokerOps.retriesPerSec', r.brokerOps.retriesPerSec);
  for (const q of r.queues) {
    f.set(`queues.${q.name}.peakDepth`, q.peakDepth);
    f.set(`queues.${q.name}.peakHeld`, q.peakHeld);
    f.set(`queues.${q.name}.peakMemoryBytes`, q.peakMemoryBytes);
    f.set(`queues.${q.name}.peakDiskBytes`, q.peakDiskBytes);
  }
  for (const h of r.held) f.set(`held.${h.exchange}.peakHeld`, h.peakHeld);
  return f;
}

const rank = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;

export function spreadOf(values: readonly (number | null)[]): Spread {
  const seen = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const never = values.length - seen.length;
  return {
    p5: rank(seen, 0.05),
    p50: rank(seen, 0.5),
    p95: rank(seen, 0.95),
    ...(never > 0 ? { never } : {}),
  };
}

export function rehearseRuns(
  design: Design,
  load: RehearsalLoad,
  runs: number,
  options: RehearseOptions = {},
): RehearsalReport {
  const first = load.seed ?? 1;
  const seeds = Array.from({ length: Math.max(1, Math.floor(runs)) }, (_, i) => first + i);
  const reports = seeds.map((seed) => rehearse(design, { ...load, seed }, options));
  const all = reports.map(figuresOf);
  const figures: Record<string, Spread> = {};
  for (const name of all[0]!.keys()) figures[name] = spreadOf(all.map((f) => f.get(name) ?? null));
  return {
    ...reports[0]!,
    wallMs: reports.reduce((s, r) => s + r.wallMs, 0),
    runs: { count: seeds.length, seeds, figures },
  };
}
