/**
 * The candidates worth rehearsing: each template's coarse grid, built, screened (screen.ts), then
 * thinned by dominance: among one template's candidates with the same number of attempts, a longer
 * span only makes messages wait longer after the outage, so the shortest spans that cover the
 * outage are kept. What is left is spread over the attempt counts and capped per template.
 */
import { TemplateParamError } from '../templates/binaryDelay.js';
import { resolveParams } from '../templates/params.js';
import type { RetryTemplate } from '../templates/types.js';
import type { Design } from '../model/design.js';
import { paramGrid } from './paramGrid.js';
import { screen, type Screened } from './screen.js';
import { countObjects } from './objects.js';
import type { Candidate, FailureProfile, GoalId, TuneGoals } from './types.js';

export interface Screening {
  readonly candidate: Candidate;
  readonly figures: Screened;
}

export interface CandidatePool {
  readonly kept: readonly Screening[];
  /** candidates built and cut before any rehearsal */
  readonly pruned: number;
  /** the goal that cut the most, with one of its reasons (for the infeasibility report) */
  readonly cuts: ReadonlyMap<GoalId, { readonly count: number; readonly example: string }>;
}

/** per (template, attempts): how many of the shortest covering spans to keep */
const SPANS_PER_ATTEMPTS = 2;

/** a consumer that retries inside the application (Spring's stateless retry), holding the delivery unacked */
const retriesInProcess = (d: Design): boolean => JSON.stringify(d.consumers).includes('"retryInProcess"');

/** Counts one screen cut under its goal, keeping the first reason as the example. */
export function countCut(cuts: Map<GoalId, { count: number; example: string }>, goal: GoalId, example: string): void {
  const c = cuts.get(goal);
  cuts.set(goal, { count: (c?.count ?? 0) + 1, example: c?.example ?? example });
}

export function candidatePool(
  templates: readonly RetryTemplate[],
  profile: FailureProfile,
  goals: TuneGoals,
  perTemplate = 8,
): CandidatePool {
  const kept: Screening[] = [];
  const cuts = new Map<GoalId, { count: number; example: string }>();
  let pruned = 0;
  for (const t of templates) {
    const screened: Screening[] = [];
    const seen = new Set<string>();
    for (const raw of paramGrid(t)) {
      const r = resolveParams(t.params, raw);
      if (!r.ok) continue;
      let built;
      try {
        built = t.build(r.values);
      } catch (e) {
        if (e instanceof TemplateParamError) continue;
        throw e;
      }
      if (profile.concurrency === undefined && retriesInProcess(built.design)) {
        pruned++;
        countCut(
          cuts,
          'max-memory',
          `${t.id}: retries in the consumer; with unbounded concurrency every message of the outage waits unacked in the application (give --concurrency to weigh it)`,
        );
        continue;
      }
      const s = screen(
        built.documented.find((d) => d.failure.kind === 'always'),
        profile,
        goals,
      );
      if (!s.kept) {
        pruned++;
        countCut(cuts, s.goal, `${t.id}: ${s.reason}`);
        continue;
      }
      // identical schedules from different params (e.g. a max delay above every delay) are one candidate
      const key = JSON.stringify(built.documented);
      if (seen.has(key)) continue;
      seen.add(key);
      const design = { ...built.design, profile: profile.profile };
      screened.push({
        candidate: {
          strategy: t.id,
          params: r.values,
          design,
          objects: countObjects(design),
          spanMs: s.figures.spanMs,
        },
        figures: s.figures,
      });
    }
    const best = undominated(screened, perTemplate);
    pruned += screened.length - best.length;
    kept.push(...best);
  }
  kept.sort((a, b) => a.figures.estimatedDeliveries - b.figures.estimatedDeliveries);
  return { kept, pruned, cuts };
}

/**
 * Per attempt count, the SPANS_PER_ATTEMPTS shortest spans (a longer span with as many attempts only
 * makes messages wait longer after the outage); then at most `cap`, spread over the attempt counts.
 */
export function undominated(screened: readonly Screening[], cap: number): readonly Screening[] {
  const byAttempts = new Map<number, Screening[]>();
  for (const s of screened) byAttempts.set(s.figures.attempts, [...(byAttempts.get(s.figures.attempts) ?? []), s]);
  const all = [...byAttempts.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, list]) =>
      [...list]
        .sort(
          (a, b) =>
            a.figures.spanMs - b.figures.spanMs || a.figures.estimatedDeliveries - b.figures.estimatedDeliveries,
        )
        .slice(0, SPANS_PER_ATTEMPTS),
    );
  return spread(all, cap);
}

/** `n` items evenly spaced over the list (first and last included): the attempt counts stay spread */
export function spread<T>(list: readonly T[], n: number): readonly T[] {
  if (list.length <= n) return list;
  if (n <= 1) return list.slice(0, n);
  return Array.from({ length: n }, (_, i) => list[Math.round((i * (list.length - 1)) / (n - 1))]!);
}
