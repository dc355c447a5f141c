/**
 * Would a recommendation survive a longer outage than asked for? Each is rehearsed again with
 * twice the longest outage (the load runs that much longer, so the same tail follows it), and
 * what it misses then is said: an answer that parks 150,000 messages at 20 minutes of outage is
 * one a reader must see beside the 10 it was tuned for.
 */
import { goalMisses } from './goals.js';
import type { Measure } from './tune.js';
import type { Candidate, FailureProfile, Robustness, TuneGoals } from './types.js';

export const ROBUSTNESS_FACTOR = 2;

export function robustnessOf(
  measure: Measure,
  c: Candidate,
  profile: FailureProfile,
  goals: TuneGoals,
): Robustness | undefined {
  const longest = Math.max(0, ...profile.outageLengthsMs);
  if (longest <= 0) return undefined;
  const outageLengthMs = ROBUSTNESS_FACTOR * longest;
  const longer: FailureProfile = { ...profile, durationMs: profile.durationMs + outageLengthMs - longest };
  const metrics = measure(c.design, longer, outageLengthMs, goals, c.spanMs);
  return { outageLengthMs, metrics, misses: goalMisses(metrics, goals) };
}
