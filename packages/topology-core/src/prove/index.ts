/** @retry-studio/topology-core/prove: import-app's prediction per channel, a real run's end, and the two compared (prove-app). Named exports. */
export { predictChannels, type ChannelPrediction, type ChannelRun, type ProofFailure } from './channelPrediction.js';
export {
  endOfOutcome,
  observedEnd,
  NEVER_CONSUMES,
  UNKNOWN_END,
  type ChannelEnd,
  type EndFacts,
} from './channelEnd.js';
export {
  compareChannel,
  delayRange,
  DELAY_SLACK_MS,
  DELAY_TOLERANCE,
  type ChannelComparison,
} from './compareChannel.js';
