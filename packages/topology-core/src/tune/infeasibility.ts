/** Saying which goal rules every candidate out, before the search (by arithmetic) and after it (from the misses). */
import { formatMs } from '../text/formatDuration.js';
import type { Evaluated, FailureProfile, GoalId, TuneGoals } from './types.js';

export interface Infeasible {
  readonly goal: GoalId;
  readonly message: string;
}

/**
 * A deadline shorter than the outage: whatever arrives in the first (outage - deadline) of the
 * outage cannot be acked before it ends, so it is late under any strategy.
 */
export function deadlineBelowOutage(profile: FailureProfile, goals: TuneGoals): Infeasible | undefined {
  if (goals.deadlineMs === undefined) return undefined;
  const longest = Math.max(...profile.outageLengthsMs);
  if (goals.deadlineMs >= longest) return undefined;
  const lateShare =
    Math.min(longest - goals.deadlineMs, profile.durationMs - profile.outageStartMs) / profile.durationMs;
  if (lateShare <= 1 - goals.deadlineShare) return undefined;
  return {
    goal: 'deadline',
    message:
      `the deadline ${formatMs(goals.deadlineMs)} is shorter than the ${formatMs(longest)} outage: messages that arrive in its first ${formatMs(longest - goals.deadlineMs)} ` +
      `(${+(lateShare * 100).toFixed(2)}% of the traffic) cannot be acked in time by any strategy, and the goal allows only ${+((1 - goals.deadlineShare) * 100).toFixed(2)}% late`,
  };
}

/**
 * The consumers cannot keep up even without failures: concurrency x 1000 / processing ms messages
 * a second against the rate (and the retries an error rate adds). A backlog grows whatever the
 * retry strategy: a capacity shortfall, not a missed deadline.
 */
export function consumerShortfall(profile: FailureProfile): Infeasible | undefined {
  if (profile.concurrency === undefined || profile.processingMs <= 0) return undefined;
  const served = (profile.concurrency * 1000) / profile.processingMs;
  const asked = profile.rate / Math.max(1e-9, 1 - profile.errorRate);
  if (served >= asked) return undefined;
  return {
    goal: 'capacity',
    message: `the consumers serve at most ${+served.toFixed(1)} messages/s (concurrency ${profile.concurrency} x 1000 / ${profile.processingMs} ms) and ${+asked.toFixed(1)}/s arrive${profile.errorRate > 0 ? ' with the retries of the error rate' : ''}: a backlog grows whatever the retry strategy; add consumers (--concurrency) or make processing faster`,
  };
}

/**
 * After the search found nothing: the goals that, dropped alone, would leave some candidate
 * feasible (each with its closest miss); when no single goal does, the goals missed most often.
 */
export function rulingGoals(
  evaluated: readonly Evaluated[],
  screenCuts: ReadonlyMap<GoalId, { readonly count: number; readonly example: string }>,
): Infeasible[] {
  const alone = new Map<GoalId, string>();
  for (const e of evaluated) {
    const goals = new Set(e.misses.map((m) => m.goal));
    if (goals.size === 1) {
      const g = [...goals][0]!;
      if (!alone.has(g))
        alone.set(
          g,
          `${e.candidate.strategy} ${paramsText(e.candidate.params)} comes closest: ${e.misses[0]!.message}`,
        );
    }
  }
  if (alone.size > 0) return [...alone.entries()].map(([goal, message]) => ({ goal, message }));
  const counts = new Map<GoalId, { count: number; example: string }>(screenCuts);
  for (const e of evaluated)
    for (const g of new Set(e.misses.map((m) => m.goal))) {
      const c = counts.get(g);
      counts.set(g, {
        count: (c?.count ?? 0) + 1,
        example: c?.example ?? `${e.candidate.strategy}: ${e.misses.find((m) => m.goal === g)!.message}`,
      });
    }
  return [...counts.entries()]
    .sort(([, a], [, b]) => b.count - a.count)
    .slice(0, 2)
    .map(([goal, c]) => ({ goal, message: `${c.count} candidates miss it, e.g. ${c.example}` }));
}

export const paramsText = (p: { readonly [k: string]: unknown }): string =>
  Object.entries(p)
    .filter(([k]) => k !== 'prefix' && k !== 'settings' && k !== 'parking')
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
