/**
 * The tuner: the candidates (templates on the profile, or variants of the user's design), screened
 * without rehearsal (screen.ts), then rehearsed coarse to fine: first a few per strategy spread over
 * their attempt counts, then the rest of the strategies that had a feasible candidate. Each
 * candidate is rehearsed under the longest outage first and dropped at its first missed goal, so
 * an infeasible one costs one rehearsal. The feasible ones are ranked by the stated cost (cost.ts).
 */
import type { RetryTemplate } from '../templates/types.js';
import type { Design } from '../model/design.js';
import { candidatePool, type CandidatePool, type Screening, spread } from './candidates.js';
import { compareCost, costOf } from './cost.js';
import { designPool } from './designPool.js';
import { whyChosen } from './explain.js';
import { goalMisses } from './goals.js';
import { deadlineBelowOutage, rulingGoals } from './infeasibility.js';
import { paretoFront } from './pareto.js';
import { rehearseCandidate } from './measure.js';
import type { Candidate, Evaluated, FailureProfile, ParetoPoint, Recommendation, TuneGoals, TuneMetrics, TuneResult } from './types.js';

/** One rehearsal of a design under one outage length, read into the tuner's figures. */
export type Measure = (design: Design, profile: FailureProfile, outageLengthMs: number, goals: TuneGoals, spanMs: number) => TuneMetrics;

export interface TuneRequest {
  readonly profile: FailureProfile;
  readonly goals: TuneGoals;
  /** the templates to choose among (strategiesOnProfile), unless `from` is given */
  readonly templates: readonly RetryTemplate[];
  /** tune this design's own knobs instead of choosing a template */
  readonly from?: Design;
  /** how many recommendations to return (default 5) */
  readonly limit?: number;
}

/** candidates per strategy in the coarse pass, and in all */
const COARSE_PER_STRATEGY = 3;
const FINE_PER_STRATEGY = 8;

export function tuneWith(measure: Measure, req: TuneRequest): TuneResult {
  const started = Date.now();
  const { profile, goals } = req;
  const stats = (candidates: number, pruned: number, rehearsals: number): TuneResult['stats'] => ({ candidates, pruned, rehearsals, wallMs: Date.now() - started });
  const early = deadlineBelowOutage(profile, goals);
  if (early) return { feasible: false, recommendations: [], pareto: [], infeasibleBecause: [early], stats: stats(0, 0, 0) };

  const pool: CandidatePool = req.from ? designPool(req.from, profile, goals) : candidatePool(req.templates, profile, goals, FINE_PER_STRATEGY);
  const outages = [...profile.outageLengthsMs].sort((a, b) => b - a);
  let rehearsals = 0;
  const evaluate = (c: Candidate): Evaluated => {
    const metrics: TuneMetrics[] = [];
    for (const L of outages) {
      const m = measure(c.design, profile, L, goals, c.spanMs);
      rehearsals++;
      metrics.push(m);
      const misses = goalMisses(m, goals);
      if (misses.length > 0) return { candidate: c, metrics, misses };
    }
    return { candidate: c, metrics, misses: [] };
  };

  // coarse: a few per strategy, spread over attempt counts; fine: the rest, for strategies that had a feasible one
  const byStrategy = new Map<string, Screening[]>();
  for (const s of pool.kept) byStrategy.set(s.candidate.strategy, [...(byStrategy.get(s.candidate.strategy) ?? []), s]);
  const evaluated: Evaluated[] = [];
  const coarse = new Set<Screening>();
  for (const list of byStrategy.values()) for (const s of spread(list, COARSE_PER_STRATEGY)) coarse.add(s);
  for (const s of coarse) evaluated.push(evaluate(s.candidate));
  const promising = new Set(evaluated.filter((e) => e.misses.length === 0).map((e) => e.candidate.strategy));
  for (const s of pool.kept) if (!coarse.has(s) && promising.has(s.candidate.strategy)) evaluated.push(evaluate(s.candidate));

  const feasible = evaluated
    .filter((e) => e.misses.length === 0)
    .map((e) => ({ e, cost: costOf(e.metrics, e.candidate.objects), longest: e.metrics[0]! }))
    .sort((a, b) => compareCost(a.cost, b.cost));
  const candidates = pool.kept.length + pool.pruned;
  if (feasible.length === 0)
    return { feasible: false, recommendations: [], pareto: [], infeasibleBecause: rulingGoals(evaluated, pool.cuts), stats: stats(candidates, pool.pruned, rehearsals) };

  const points: ParetoPoint[] = feasible.map(({ e, longest }) => ({
    strategy: e.candidate.strategy,
    params: e.candidate.params,
    p99DelayMs: longest.delayMs.p99,
    amplification: longest.amplification,
    peakMemoryBytes: longest.peakMemoryBytes,
  }));
  const front = paretoFront(points);
  const onFront = new Set(front.map((p) => p.params));
  const best = feasible[0]!;
  const recommendations: Recommendation[] = feasible.slice(0, req.limit ?? 5).map(({ e, cost, longest }, i) => ({
    strategy: e.candidate.strategy,
    params: e.candidate.params,
    metrics: longest,
    byOutage: e.metrics,
    design: e.candidate.design,
    cost,
    why: whyChosen(i, cost, longest, { cost: best.cost, metrics: best.longest }, onFront.has(e.candidate.params)),
  }));
  return { feasible: true, recommendations, pareto: front, stats: stats(candidates, pool.pruned, rehearsals) };
}

/** The tuner with the rehearse floor's rehearsal: what the CLI, the server and the browser call. */
export const tune = (req: TuneRequest): TuneResult => tuneWith(rehearseCandidate, req);
