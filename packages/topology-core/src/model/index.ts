/** @retry-studio/topology-core/model: the topology (definitions shape), consumers, publishers, the design document, validation, x-death. Named exports, so what the apps use is visible here. */
export {
  type AmqpTable,
  type AmqpValue,
  type BindingDef,
  BUILTIN_EXCHANGE_TYPES,
  type BuiltinExchangeType,
  DEFAULT_EXCHANGE,
  type ExchangeDef,
  type ExchangeType,
  PLUGIN_EXCHANGE_TYPES,
  type PluginExchangeType,
  type PolicyApplyTo,
  type PolicyDef,
  type QueueDef,
  type Topology,
} from './definitions.js';
export {
  type Condition,
  type ConsumerAction,
  type ConsumerBehaviour,
  type ConsumerSpec,
  type Counter,
  type DeathReason,
  type FailureModel,
  type Rule,
  type ValueExpr,
} from './consumer.js';
export { type PublisherSpec, type PublishProperties } from './publisher.js';
export {
  BROKER_PROFILE_IDS,
  type BrokerProfileId,
  type Design,
  DESIGN_FORMAT,
  DESIGN_VERSION,
  type NodePosition,
} from './design.js';
export {
  checkEntityName,
  FORBIDDEN_KEYS,
  isForbiddenKey,
  MAX_NAME_BYTES,
  type NameProblem,
  pathIndex,
  pathKey,
  utf8ByteLength,
} from './names.js';
export {
  type ArgSpec,
  checkDelay,
  checkExpirationString,
  checkTtl,
  DEAD_LETTER_STRATEGIES,
  DELAYED_UNDERLYING_TYPES,
  EXCHANGE_ARGUMENTS,
  intRange,
  MAX_EXPIRATION_MS,
  MAX_TTL_MS,
  OVERFLOW_MODES,
  QUEUE_ARGUMENTS,
  QUEUE_TYPES,
  type QueueType,
  queueTypeOf,
  argumentAllowed,
  MAX_AGE_PATTERN,
  X_MATCH_VALUES,
} from './arguments.js';
export {
  formatIssues,
  isPlainObject,
  IssueSink,
  type ValidationIssue,
  type ValidationResult,
} from './validateResult.js';
export {
  checkTable,
  type TopologyValidationOptions,
  validateTopology,
  validateTopologyInto,
} from './validateTopology.js';
export {
  type DesignValidationOptions,
  parseDesign,
  type ParseDesignResult,
  validateDesign,
  validateFailureModel,
} from './validateDesign.js';
export {
  choosePolicy,
  exactNamePattern,
  POLICY_APPLY_TO,
  POLICY_APPLY_TO_3_10,
  type PolicyChoice,
  policyMatches,
  policyPattern,
  type PolicyTarget,
  policyTargetOf,
  prefixedPolicyPattern,
} from './policyMatch.js';
export {
  brokerLine,
  POLICY_KEY_FOR_ARGUMENT,
  POLICY_KEYS,
  type PolicyKeySpec,
  refusedPolicyKeys,
  type Resolution,
} from './policyKeys.js';
export {
  alternateExchangeOf,
  describeSource,
  effectiveArguments,
  type EffectiveOptions,
  type EffectiveSettings,
  type EffectiveValue,
  exchangeEffectiveSettings,
  type PolicySet,
  queueEffectiveSettings,
  type SettingSource,
} from './effectiveSettings.js';
export {
  argumentDifferences,
  type ChangeEffect,
  type DeclaredExchange,
  type DeclaredQueue,
  describeChange,
  exchangeDeclarationChanges,
  policyChanges,
  queueDeclarationChanges,
  sameAmqpValue,
  type SettingChange,
} from './settingChanges.js';
export { DEATH_REASONS, isDeathReason, parseXDeath, parseXDeathEntry, type XDeathEntry } from './xDeath.js';
export {
  consumerNodeId,
  type ConsumerNodeId,
  designNodeIds,
  exchangeNodeId,
  type ExchangeNodeId,
  isConsumerNodeId,
  isExchangeNodeId,
  isNodeId,
  isPublisherNodeId,
  isQueueNodeId,
  NODE_KINDS,
  nodeId,
  type NodeId,
  nodeIdForPath,
  type NodeKind,
  nodeName,
  parseNodeId,
  publisherNodeId,
  type PublisherNodeId,
  queueNodeId,
  type QueueNodeId,
} from './nodeIds.js';
export { DESIGN_MIGRATIONS, designVersionOf, migrateDesign, type MigrateResult, type Migration } from './migrate.js';
export {
  designReferences,
  mapReferences,
  type NameReference,
  type ReferenceKind,
  type ReferenceRole,
  type ReferenceTarget,
  type RenameReference,
} from './references.js';
export { renameNode, type RenameResult } from './renameNode.js';
export { topologyEffectiveSettings, type TopologySettings } from './effectiveSettings.js';
export { mapHeaderReferences, NAMING_HEADERS } from './references.js';
export {
  mapRepublishes,
  type MapRepublish,
  republishDestination,
  type RepublishDestination,
  republishSites,
  type RepublishSite,
  type RepublishSlot,
} from './republishes.js';
export { describeIssue, issueSubject, type IssueSubject } from './issueSubject.js';
export { brokerPolicyPins, policyTies, describeStake, type PolicyTie } from './policyTies.js';
export {
  APP_FRAMEWORKS,
  type AppFramework,
  isAppFramework,
  type NodeSource,
  type SourceNote,
  type SourceNoteKind,
  type SourceSetting,
  sourceSetting,
} from './source.js';
export {
  DELAYED_RETRY_TYPES,
  type DelayedRetry,
  type DelayedRetryRefusal,
  type DelayedRetrySetting,
  type DelayedRetryType,
  type DelayedRetryValues,
  delayedRetryArgumentNotes,
  delayedRetryPolicyRefusals,
  effectiveDelayedRetry,
} from './delayedRetry.js';
export { type OmittedField, refusedOmissions } from './definitionFields.js';
export { appFileKind, holdsRabbitObjects, isAppConfigFile, isAppConfigJson, type AppFileKind } from './appFileKind.js';
