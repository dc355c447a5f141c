/**
 * The registry of the retry linter's rules, one rule per file in rules/, each one object built by
 * defineRule (id, title, docs and check together). Each finding names the canvas objects and says
 * how to fix it. Rules see only what is declared: a definitions file has no consumers. Adding a
 * rule: its file (defineRule({...})), one import and one entry below; nothing else lists rules.
 */
import type { LintRule } from './types.js';
import { requeueWithoutLimit } from './rules/requeueWithoutLimit.js';
import { deadLetterUnroutable } from './rules/deadLetterUnroutable.js';
import { deadLetterQueueUnreachable } from './rules/deadLetterQueueUnreachable.js';
import { dlxMissing } from './rules/dlxMissing.js';
import { dlxFanoutRedeliversToAll } from './rules/dlxFanoutRedeliversToAll.js';
import { perMessageTtlHeadOfLine } from './rules/perMessageTtlHeadOfLine.js';
import { automaticCycleDropped } from './rules/automaticCycleDropped.js';
import { retryWithoutMax } from './rules/retryWithoutMax.js';
import { pluginRequired } from './rules/pluginRequired.js';
import { delayedExchangeMandatory } from './rules/delayedExchangeMandatory.js';
import { delayOutOfRange } from './rules/delayOutOfRange.js';
import { quorumDefaultDeliveryLimit } from './rules/quorumDefaultDeliveryLimit.js';
import { dlRoutingKeyWithoutDlx } from './rules/dlRoutingKeyWithoutDlx.js';
import { overflowDropsSilently } from './rules/overflowDropsSilently.js';
import { largeExceptionHeaders } from './rules/largeExceptionHeaders.js';
import { immutableArgumentChange } from './rules/immutableArgumentChange.js';
import { nackNeverReachesDeliveryLimit } from './rules/nackNeverReachesDeliveryLimit.js';
import { retryNeverEnds } from './rules/retryNeverEnds.js';
import { classicQueueInCluster } from './rules/classicQueueInCluster.js';
import { bindingNeverMatches } from './rules/bindingNeverMatches.js';
import { ttlQueueWithoutExit } from './rules/ttlQueueWithoutExit.js';
import { deadLetterIntoStream } from './rules/deadLetterIntoStream.js';
import { deadLetterCycleUnbounded } from './rules/deadLetterCycleUnbounded.js';
import { parkedDeadLettersExpire } from './rules/parkedDeadLettersExpire.js';
import { policyPriorityTie } from './rules/policyPriorityTie.js';
import { requeueRejectedForever } from './rules/requeueRejectedForever.js';
import { frameworkKeyIgnored } from './rules/frameworkKeyIgnored.js';
import { frameworkSettingTrap } from './rules/frameworkTrap.js';
import { frameworkQueueRefused } from './rules/frameworkQueueRefused.js';
import { appDiscardsFailures } from './rules/appDiscardsFailures.js';
import { immediateRetriesOverDeliveryLimit } from './rules/immediateRetriesOverDeliveryLimit.js';
import { republishCountsXDeath } from './rules/republishCountsXDeath.js';
import { backoffWithoutJitter } from './rules/backoffWithoutJitter.js';
import { backoffOverConsumerTimeout } from './rules/backoffOverConsumerTimeout.js';
import { policyKeyRefused } from './rules/policyKeyRefused.js';
import { policyApplyToRefused } from './rules/policyApplyToRefused.js';
import { policyNeverApplies } from './rules/policyNeverApplies.js';
import { policySkippedByQueueType } from './rules/policySkippedByQueueType.js';
import { definitionsFieldRefused } from './rules/definitionsFieldRefused.js';
import { delayedRetryNotAsWritten, delayedRetryRefused } from './rules/delayedRetryAsBrokerReads.js';

export const RULES: readonly LintRule[] = [
  requeueWithoutLimit,
  deadLetterUnroutable,
  deadLetterQueueUnreachable,
  dlxMissing,
  dlxFanoutRedeliversToAll,
  perMessageTtlHeadOfLine,
  automaticCycleDropped,
  retryWithoutMax,
  pluginRequired,
  delayedExchangeMandatory,
  delayOutOfRange,
  quorumDefaultDeliveryLimit,
  dlRoutingKeyWithoutDlx,
  overflowDropsSilently,
  largeExceptionHeaders,
  immutableArgumentChange,
  nackNeverReachesDeliveryLimit,
  retryNeverEnds,
  classicQueueInCluster,
  bindingNeverMatches,
  ttlQueueWithoutExit,
  deadLetterIntoStream,
  deadLetterCycleUnbounded,
  parkedDeadLettersExpire,
  policyPriorityTie,
  requeueRejectedForever,
  frameworkKeyIgnored,
  frameworkSettingTrap,
  frameworkQueueRefused,
  appDiscardsFailures,
  immediateRetriesOverDeliveryLimit,
  republishCountsXDeath,
  backoffWithoutJitter,
  backoffOverConsumerTimeout,
  policyKeyRefused,
  policyApplyToRefused,
  policyNeverApplies,
  policySkippedByQueueType,
  definitionsFieldRefused,
  delayedRetryRefused,
  delayedRetryNotAsWritten,
];

export const LINT_RULE_IDS: readonly string[] = RULES.map((r) => r.id);
