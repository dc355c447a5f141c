/**
 * The candidates of `tune --from`: the user's design with its delays scaled and its counts shifted
 * (designKnobs.ts), each screened by its own retry budget (what it does to a message that always
 * fails, simulated), then thinned like the templates' candidates.
 */
import { computeBudget } from '../budget/budget.js';
import type { Design } from '../model/design.js';
import { countCut, type CandidatePool, undominated, type Screening } from './candidates.js';
import { COUNT_SHIFTS, DELAY_SCALES, designVariant } from './designKnobs.js';
import { countObjects } from './objects.js';
import { screen } from './screen.js';
import type { FailureProfile, GoalId, TuneGoals } from './types.js';

export function designPool(from: Design, profile: FailureProfile, goals: TuneGoals, cap = 16): CandidatePool {
  const cuts = new Map<GoalId, { count: number; example: string }>();
  const screened: Screening[] = [];
  const seen = new Set<string>();
  let pruned = 0;
  for (const scale of DELAY_SCALES)
    for (const shift of COUNT_SHIFTS) {
      const v = designVariant({ ...from, profile: profile.profile }, scale, shift);
      const key = JSON.stringify(v.params);
      if (seen.has(key)) continue;
      seen.add(key);
      const b = computeBudget(v.design, { kind: 'always' }, { maxTimeMs: 7 * 24 * 3600 * 1000 });
      const s = screen(
        b.truncated ? { attempts: 'unbounded', delaysMs: b.delaysMs, endsIn: { kind: 'cycling' } } : b,
        profile,
        goals,
      );
      if (!s.kept) {
        pruned++;
        countCut(cuts, s.goal, `delays x${scale}, counts ${shift >= 0 ? '+' : ''}${shift}: ${s.reason}`);
        continue;
      }
      screened.push({
        candidate: {
          strategy: from.name,
          params: v.params,
          design: v.design,
          objects: countObjects(v.design),
          spanMs: s.figures.spanMs,
        },
        figures: s.figures,
      });
    }
  const kept = [...undominated(screened, cap)].sort(
    (a, b) => a.figures.estimatedDeliveries - b.figures.estimatedDeliveries,
  );
  return { kept, pruned: pruned + screened.length - kept.length, cuts };
}
