/** @retry-studio/topology-core/sim: the simulator: events (the one event vocabulary), profiles, simulate, message traces, retry ending. Named exports, so what the apps use is visible here. */
export { type DropReason, type PublishOrigin, type SimEvent, type SimEventKind, type SimEventOf } from './events.js';
export { firstMessages } from './firstMessages.js';
export {
  type FailureSchedule,
  type IgnoredArgument,
  type Logical,
  type MessageSnapshot,
  type Msg,
  type MsgShape,
  type ProfileOptions,
  type QueueDepth,
  type SimStep,
  type SimulationInput,
  type SimulationResult,
  type SimulationStats,
} from './types.js';
export { simulate } from './simulate.js';
export {
  checkNodeLoss,
  DEFAULT_LEADER_MOVE_MS,
  outagesOf,
  parseNodeLoss,
  type NodeLoss,
  type Outage,
} from './nodeLoss.js';
export { Simulator } from './simulator.js';
export { type DesignSimOptions, designToSimulation, usesV43Features } from './designToSimulation.js';
export { PROFILE_3_10, PROFILE_4_3, PROFILE_4_X, profileFor, type SemanticsProfile } from './profiles.js';
export { profileForVersion } from './profileForVersion.js';
export { attemptDraw, mulberry32, type Rng } from './rng.js';
export { EventHeap } from './eventHeap.js';
export { Deque } from './deque.js';
export { deadLetterMsg, EMPTY_HEADERS, isCycle, streamDropsDeadLetter } from './deadLetter.js';
export { type DelayedRetry, type Overflow, queueConfig, type QueueConfig } from './queueConfig.js';
export {
  activeQueuesOf,
  deadLetteringQueuesOf,
  type BrokerOps,
  type MessageTrace,
  streamsOf,
  traceMessages,
  type TraceOptions,
} from './messageTrace.js';
export {
  boundedRetryRuns,
  markNeverEndsFailingAlways,
  neverEnds,
  RETRY_RUN_MAX_EVENTS,
  type RetryRun,
} from './retryEnding.js';
export {
  cycleOf,
  decideOutcome,
  endingOf,
  isMoving,
  type Ending,
  type FateContext,
  type MessageOutcome,
  type OutcomeKind,
} from './messageOutcome.js';
export { describeOutcome, dropText, type OutcomeContext, outcomeTone, parkedFate } from './outcomeText.js';
export { outcomesOfRun, type RunOutcomes } from './runOutcomes.js';
export { type EventOutcomeOptions, fateRulesOf, type FateRules, outcomesOfEvents } from './eventOutcomes.js';
export { CopyLedger, foldEvent, ledgerOf, type LedgerOptions } from './copyLedger.js';
export { type DropFact, type LedgerRules, MessageCopies, type RouteStep } from './messageCopies.js';
export { BASE_HORIZON_MS, MAX_HORIZON_MS, retryHorizon, type RetryHorizon } from './retryHorizon.js';
export { stronglyConnected } from './stronglyConnected.js';
