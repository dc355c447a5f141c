/** @retry-studio/topology-core/tune: the tuner: strategies and parameters searched against a failure profile and goals. Named exports, so what the apps use is visible here. */
export type {
  Candidate,
  Evaluated,
  FailureProfile,
  GoalId,
  GoalMiss,
  ParetoPoint,
  Recommendation,
  TuneCost,
  TuneGoals,
  TuneMetrics,
  TuneResult,
} from './types.js';
export {
  DEFAULT_DEADLINE_SHARE,
  DEFAULT_OUTAGE_MS,
  DEFAULT_TUNE_DURATION_MS,
  resolveTuneInput,
  type ResolvedTuneInput,
  type TuneInput,
  type TuneInputIssue,
} from './tuneInput.js';
export { strategiesOnProfile, whyNotOnProfile } from './strategiesOnProfile.js';
export {
  COARSE_MESSAGES,
  FINE_PER_STRATEGY,
  SPARE_CONFIRMATIONS,
  type Measures,
  tune,
  tuneWith,
  type Measure,
  type TuneRequest,
} from './tune.js';
export { rehearseCandidate, rehearseScaled, tuneLoad } from './measure.js';
export { goalMisses } from './goals.js';
export { describeProblem, formatTune } from './formatTune.js';
export { paramsText } from './infeasibility.js';
