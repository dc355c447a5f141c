/** @retry-studio/topology-core/lint: the design linter and its rules. Named exports, so what the apps use is visible here. */
export { type LintContext, type LintFinding, type LintOptions, type LintRule, type LintSeverity } from './types.js';
export { LINT_RULE_IDS, RULES } from './rules.js';
export { lintDesign, lintTopology } from './lintDesign.js';
export { effectiveQueueArgs } from './flow.js';
export { type LintRuleDoc, RULE_DOCS, ruleDoc } from './ruleDocs.js';
export { fileUri, findingLocation, type LintReportInput, lintSarif } from './sarifReport.js';
export { lintGithub } from './githubReport.js';
export {
  assumedConsumers,
  assumedPublishers,
  assumedRoleList,
  assumedWorkerId,
  describeAssumedRoles,
  JOB_TIMEOUT_RATIO,
  withAssumedActors,
  type AssumedConsumers,
  type AssumeOptions,
  type QueueRole,
} from './assumedConsumers.js';
export { arrivalKeys, type ArrivalKeys } from './arrivalKeys.js';
export {
  GROUP_AFTER,
  SHOWN_OBJECTS,
  groupFindings,
  objectList,
  type FindingGroup,
  type GroupableFinding,
} from './findingGroups.js';
