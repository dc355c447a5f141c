/** @retry-studio/topology-core/rehearse: a load with failures rehearsed on a design (the retry bill of materials). Named exports, so what the apps use is visible here. */
export { arrivalAt, arrivalSegments, type ArrivalSegment, totalMessages } from './arrivals.js';
export { type DelayPercentiles, DelayRecorder } from './delays.js';
export { attemptFails, inOutage, poisonDraw, type ScheduledMessage } from './failureSchedule.js';
export {
  type ConsumerLoad,
  DEFAULT_AFTER_MS,
  DEFAULT_BODY_BYTES,
  type OutageWindow,
  type RatePhase,
  type RehearsalLoad,
  type TargetLoad,
} from './load.js';
export { memoryBasis, type MemoryBasis, memoryBytes } from './memory.js';
export type { DepthSeries } from './queueDepths.js';
export type {
  BrokerOpsPeaks,
  MeasuredRehearsal,
  RehearsalMode,
  RehearsalOutageSpan,
  RehearsalOutcomes,
  RehearsalReport,
  QueueRehearsal,
} from './report.js';
export {
  checkLoad,
  DEFAULT_MAX_SIMULATED,
  defaultSampleMs,
  lengthLimited,
  rehearsalQueues,
  rehearse,
  RehearsalLoadError,
  type RehearseOptions,
} from './rehearse.js';
export { poisonStrata } from './cohorts.js';
export { MAX_BINS, perSecondBinMs } from './rates.js';
export { attemptOffsets, fateBreakpoints } from './probe.js';
export { resolveLoad, type ResolvedLoad, type ResolvedOutage, type ResolveLoadResult } from './resolveLoad.js';
export { loadedConsumers } from './simInput.js';
export { countedAs, Tally, type TallyOptions } from './tally.js';
