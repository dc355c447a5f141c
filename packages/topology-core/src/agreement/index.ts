/** @retry-studio/topology-core/agreement: does every place state the same outcome, and does lint agree with the simulation (issue 29). Named exports. */
export {
  type AgreementOptions,
  type Disagreement,
  failureLabel,
  HORIZON_MS,
  NEVER_ENDS_RULES,
  outcomeDisagreements,
  ruleDisagreements,
  sameOutcome,
  WEB_MAX_EVENTS,
} from './outcomeAgreement.js';
export { eventTruth } from './eventTruth.js';
