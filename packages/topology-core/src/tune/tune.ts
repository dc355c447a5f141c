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
import { consumerShortfall, deadlineBelowOutage, rulingGoals } from './infeasibility.js';
import { paretoFront } from './pareto.js';
import { candidateRehearsal, rehearseScaled } from './measure.js';
import { robustnessOf } from './robustness.js';
import { caveatOnProfile } from './strategiesOnProfile.js';
import { getTemplate } from '../templates/registry.js';
import type { Calibration } from '../calibration/index.js';
import type {
  Candidate,
  Evaluated,
  FailureProfile,
  ParetoPoint,
  Recommendation,
  TuneGoals,
  TuneMetrics,
  TuneResult,
} from './types.js';

/** One rehearsal of a design under one outage length, read into the tuner's figures. */
export type Measure = (
  design: Design,
  profile: FailureProfile,
  outageLengthMs: number,
  goals: TuneGoals,
  spanMs: number,
) => TuneMetrics;

export interface TuneRequest {
  readonly profile: FailureProfile;
  readonly goals: TuneGoals;
  /** the templates to choose among (strategiesOnProfile), unless `from` is given */
  readonly templates: readonly RetryTemplate[];
  /** tune this design's own knobs instead of choosing a template */
  readonly from?: Design;
  /** how many recommendations to return (default 3) */
  readonly limit?: number;
  /** the broker figures every rehearsal reads (default the shipped calibration of the profile's version) */
  readonly calibration?: Calibration;
}

/** candidates per strategy in the coarse pass, and in all */
const COARSE_PER_STRATEGY = 3;
export const FINE_PER_STRATEGY = 8;

/** how the tuner rehearses: `coarse` orders and prunes (fast, may be scaled down), `full` checks the answer */
export interface Measures {
  readonly coarse: Measure;
  readonly full: Measure;
}

/** full-scale rehearsals spent checking the best of the coarse pass, beyond the recommendations asked for */
export const SPARE_CONFIRMATIONS = 2;
/** p99 within this share of the deadline is a margin */
const MARGIN = 0.9;

export function tuneWith(measures: Measures, req: TuneRequest): TuneResult {
  const started = Date.now();
  const { profile, goals } = req;
  const limit = req.limit ?? 3;
  const stats = (candidates: number, pruned: number, rehearsals: number): TuneResult['stats'] => ({
    candidates,
    pruned,
    rehearsals,
    wallMs: Date.now() - started,
  });
  const early = consumerShortfall(profile) ?? deadlineBelowOutage(profile, goals);
  if (early)
    return { feasible: false, recommendations: [], pareto: [], infeasibleBecause: [early], stats: stats(0, 0, 0) };

  const pool: CandidatePool = req.from
    ? designPool(req.from, profile, goals)
    : candidatePool(req.templates, profile, goals, FINE_PER_STRATEGY);
  const outages = [...profile.outageLengthsMs].sort((a, b) => b - a);
  let rehearsals = 0;
  const evaluate = (measure: Measure, c: Candidate): Evaluated => {
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
  for (const s of coarse) evaluated.push(evaluate(measures.coarse, s.candidate));
  const promising = new Set(evaluated.filter((e) => e.misses.length === 0).map((e) => e.candidate.strategy));
  for (const s of pool.kept)
    if (!coarse.has(s) && promising.has(s.candidate.strategy)) evaluated.push(evaluate(measures.coarse, s.candidate));

  // a margin: p99 within 90% of the deadline; when any candidate has one, those that do come first
  const margin = (m: TuneMetrics): boolean =>
    goals.deadlineMs === undefined || m.delayMs.p99 <= MARGIN * goals.deadlineMs;
  const ranked = (list: readonly Evaluated[]) => {
    const ok = list
      .filter((e) => e.misses.length === 0)
      .map((e) => ({ e, cost: costOf(e.metrics, e.candidate.objects), longest: e.metrics[0]! }));
    const anyMargin = ok.some((x) => margin(x.longest));
    const key = (x: (typeof ok)[number]): number => (anyMargin && !margin(x.longest) ? 1 : 0);
    return ok.sort((a, b) => key(a) - key(b) || compareCost(a.cost, b.cost));
  };
  // check the answer: the best of the coarse pass rehearsed again at full scale, until `limit` hold
  const confirmed: Evaluated[] = [];
  const fullMisses: Evaluated[] = [];
  for (const { e } of ranked(evaluated)) {
    if (confirmed.length >= limit || confirmed.length + fullMisses.length >= limit + SPARE_CONFIRMATIONS) break;
    const f = evaluate(measures.full, e.candidate);
    (f.misses.length === 0 ? confirmed : fullMisses).push(f);
  }
  const feasible = ranked(confirmed);
  const candidates = pool.kept.length + pool.pruned;
  if (feasible.length === 0)
    return {
      feasible: false,
      recommendations: [],
      pareto: [],
      infeasibleBecause: rulingGoals([...fullMisses, ...evaluated], pool.cuts),
      stats: stats(candidates, pool.pruned, rehearsals),
    };

  // the front over every candidate that met the goals (full-scale figures where rehearsed at full scale)
  const fullOf = new Map(confirmed.map((e) => [e.candidate, e]));
  const fullFailed = new Set(fullMisses.map((e) => e.candidate));
  const points: ParetoPoint[] = ranked(evaluated)
    .filter(({ e }) => !fullFailed.has(e.candidate))
    .map(({ e }) => {
      const m = (fullOf.get(e.candidate) ?? e).metrics[0]!;
      return {
        strategy: e.candidate.strategy,
        params: e.candidate.params,
        p99DelayMs: m.delayMs.p99,
        amplification: m.amplification,
        peakMemoryBytes: m.peakMemoryBytes,
      };
    });
  const front = paretoFront(points);
  const onFront = new Set(front.flatMap((p) => [p.params, ...(p.equivalent ?? []).map((e) => e.params)]));
  const best = feasible[0]!;
  const recommendations: Recommendation[] = feasible.map(({ e, cost, longest }, i) => {
    const robustness = robustnessOf(measures.full, e.candidate, profile, goals);
    if (robustness) rehearsals++;
    const template = getTemplate(e.candidate.strategy);
    const caveat = template ? caveatOnProfile(template) : undefined;
    return {
      strategy: e.candidate.strategy,
      params: e.candidate.params,
      metrics: longest,
      byOutage: e.metrics,
      design: e.candidate.design,
      cost,
      why: whyChosen(i, cost, longest, { cost: best.cost, metrics: best.longest }, onFront.has(e.candidate.params), {
        ...(goals.deadlineMs !== undefined ? { deadlineMs: goals.deadlineMs } : {}),
        margin: margin(longest),
      }),
      ...(robustness ? { robustness } : {}),
      ...(caveat ? { caveat } : {}),
    };
  });
  return { feasible: true, recommendations, pareto: front, stats: stats(candidates, pool.pruned, rehearsals) };
}

/** messages per coarse rehearsal (the load thinned to this, message by message) */
export const COARSE_MESSAGES = 3000;

/** The tuner with the rehearse floor's rehearsal: what the CLI, the server and the browser call. */
export const tune = (req: TuneRequest): TuneResult =>
  tuneWith(
    { coarse: rehearseScaled(COARSE_MESSAGES, req.calibration), full: candidateRehearsal(req.calibration) },
    req,
  );
