/** @retry-studio/topology-core/rehearse: a load with failures rehearsed on a design (the retry bill of materials). Named exports, so what the apps use is visible here. */
export { arrivalAt, arrivalSegments, type ArrivalSegment, totalMessages } from './arrivals.js';
export { type DelayPercentiles, DelayRecorder } from './delays.js';
export { attemptFails, inOutage, poisonDraw, type ScheduledMessage } from './failureSchedule.js';
export {
  type ConsumerLoad,
  DEFAULT_AFTER_MS,
  DEFAULT_BODY_BYTES,
  DEFAULT_BROKER_MEMORY_BYTES,
  DEFAULT_DISK_FREE_BYTES,
  type OutageWindow,
  type RatePhase,
  type RehearsalLoad,
  type TargetLoad,
} from './load.js';
export type { DepthSeries } from './queueDepths.js';
export type { CapacityShortfall, HotLoop } from './capacity.js';
export { watermarkOf } from './billSetup.js';
export type {
  BrokerOpsPeaks,
  CalibrationUsed,
  HeldRehearsal,
  MeasuredNode,
  MeasuredQueue,
  NodeAlarm,
  NodeRehearsal,
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
  withoutOutages,
} from './rehearse.js';
export { poisonStrata } from './cohorts.js';
export { MAX_BINS, perSecondBinMs } from './rates.js';
export { attemptOffsets, fateBreakpoints } from './probe.js';
export { resolveLoad, type ResolvedLoad, type ResolvedOutage, type ResolveLoadResult } from './resolveLoad.js';
export { loadedConsumers } from './simInput.js';
export { countedAs, Tally, type TallyOptions } from './tally.js';
export { figuresOf, rehearseRuns, type RunsSummary, type Spread, spreadOf } from './runs.js';
export { rehearsalVerdict, type VerdictKind, type VerdictLine } from './verdict.js';
export { withTargetWorkers, type WithTargets } from './targetWorkers.js';
export { LOAD_FORMAT, loadFileOf, migrateLoad, readLoadFile, type ReadLoadResult } from './loadFile.js';
