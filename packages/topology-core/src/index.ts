/** The public API of topology-core, named (no `export *`), so what the web and the server use is visible here. */
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
} from './model/definitions.js';
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
} from './model/consumer.js';
export { type PublisherSpec, type PublishProperties } from './model/publisher.js';
export { type BrokerProfileId, type Design, DESIGN_FORMAT, DESIGN_VERSION, type NodePosition } from './model/design.js';
export {
  type DropReason,
  type PublishOrigin,
  type SimEvent,
  type SimEventKind,
  type SimEventOf,
} from './sim/events.js';
export { firstMessages } from './sim/firstMessages.js';
export {
  type Observed,
  type ObservedDeath,
  type ObservedDelivery,
  type ObservedMessage,
  type Scenario,
  SCENARIO_FORMAT,
  type ScenarioAction,
  type ScenarioConsumer,
  type ScenarioPublishProperties,
  type ScenarioStep,
} from './scenario/types.js';
export {
  checkEntityName,
  FORBIDDEN_KEYS,
  isForbiddenKey,
  MAX_NAME_BYTES,
  type NameProblem,
  pathIndex,
  pathKey,
  utf8ByteLength,
} from './model/names.js';
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
} from './model/arguments.js';
export {
  formatIssues,
  isPlainObject,
  IssueSink,
  type ValidationIssue,
  type ValidationResult,
} from './model/validateResult.js';
export {
  checkTable,
  type TopologyValidationOptions,
  validateTopology,
  validateTopologyInto,
} from './model/validateTopology.js';
export {
  type DesignValidationOptions,
  parseDesign,
  type ParseDesignResult,
  validateDesign,
  validateFailureModel,
} from './model/validateDesign.js';
export {
  choosePolicy,
  exactNamePattern,
  POLICY_APPLY_TO,
  type PolicyChoice,
  policyMatches,
  policyPattern,
  type PolicyTarget,
  policyTargetOf,
  prefixedPolicyPattern,
} from './model/policyMatch.js';
export {
  brokerLine,
  POLICY_KEY_FOR_ARGUMENT,
  POLICY_KEYS,
  type PolicyKeySpec,
  refusedPolicyKeys,
  type Resolution,
} from './model/policyKeys.js';
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
  topologyEffectiveSettings,
  type TopologySettings,
} from './model/effectiveSettings.js';
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
} from './model/settingChanges.js';
export { DEATH_REASONS, isDeathReason, parseXDeath, parseXDeathEntry, type XDeathEntry } from './model/xDeath.js';
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
} from './model/nodeIds.js';
export {
  DESIGN_MIGRATIONS,
  designVersionOf,
  migrateDesign,
  type MigrateResult,
  type Migration,
} from './model/migrate.js';
export {
  designReferences,
  mapHeaderReferences,
  mapReferences,
  NAMING_HEADERS,
  type NameReference,
  type ReferenceKind,
  type ReferenceRole,
  type ReferenceTarget,
  type RenameReference,
} from './model/references.js';
export {
  mapRepublishes,
  type MapRepublish,
  republishDestination,
  type RepublishDestination,
  republishSites,
  type RepublishSite,
  type RepublishSlot,
} from './model/republishes.js';
export { describeIssue, issueSubject, type IssueSubject } from './model/issueSubject.js';
export { renameNode, type RenameResult } from './model/renameNode.js';
export {
  type DefinitionsJson,
  designFromTopology,
  exportDefinitions,
  exportDefinitionsVhosts,
  type ExportDefinitionsOptions,
  importDefinitions,
  type ImportDefinitionsOptions,
  type ImportDefinitionsResult,
  looksLikeDefinitions,
} from './io/definitions.js';
export { readDesignJson, writeDesignJson } from './io/designJson.js';
export { designFromScenario, type DocumentKind, loadDocument, loadDocumentVhosts, type LoadedDocument, loadValue, parseJsonText } from './io/load.js';
export { describeVhost, describeVhostsWithObjects, objectCount, vhostContents, type VhostContents } from './io/definitionsVhosts.js';
export { describeJsonError } from './io/jsonSyntax.js';
export { exportVhosts, MULTI_VHOST_FORMATS, type VhostDesign } from './io/exportVhosts.js';
export {
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
} from './sim/types.js';
export { simulate } from './sim/simulate.js';
export { checkNodeLoss, DEFAULT_LEADER_MOVE_MS, outagesOf, parseNodeLoss, type NodeLoss, type Outage } from './sim/nodeLoss.js';
export { Simulator } from './sim/simulator.js';
export { type DesignSimOptions, designToSimulation, usesV43Features } from './sim/designToSimulation.js';
export { PROFILE_3_10, PROFILE_4_3, PROFILE_4_X, profileFor, type SemanticsProfile } from './sim/profiles.js';
export { profileForVersion } from './sim/profileForVersion.js';
export { attemptDraw, mulberry32, type Rng } from './sim/rng.js';
export { EventHeap } from './sim/eventHeap.js';
export { Deque } from './sim/deque.js';
export { deadLetterMsg, EMPTY_HEADERS, isCycle, streamDropsDeadLetter } from './sim/deadLetter.js';
export { delayOf, MAX_DELAY_MS } from './routing/delayedExchange.js';
export { radlxDeadSource, routeRadlx } from './routing/radlx.js';
export {
  type DelayedRetry,
  type Overflow,
  queueConfig,
  type QueueConfig,
} from './sim/queueConfig.js';
export { topicMatches, topicWords, topicWordsMatch } from './routing/topicMatcher.js';
export { amqpEquals, headersMatch, parseXMatch, type XMatch } from './routing/headersMatcher.js';
export {
  type CompiledBinding,
  type CompiledExchange,
  compileExchanges,
  type Dest,
  type ExchangeIndex,
  type MatchType,
} from './routing/exchangeIndex.js';
export {
  route,
  type RouteHop,
  type RouteMessage,
  type RouteOptions,
  Router,
  type RouteResult,
} from './routing/route.js';
export {
  backoffMs,
  chooseAction,
  type DeliveryView,
  evalCondition,
  evalCounter,
  evalValue,
  type FailureContext,
  firstRule,
  isValueExpr,
  planRepublish,
  processingSucceeds,
  type RepublishPlan,
} from './behaviour/evaluate.js';
export { actionSettlesMultiple, settlesMultiple, wireMethod } from './behaviour/settlesMultiple.js';
export {
  DEFAULT_SETTLE_MS,
  fromScenario,
  SCENARIO_MAX_EVENTS,
  scenarioAction,
  scenarioConsumers,
  type ScenarioSimOptions,
  scenarioSteps,
} from './scenario/fromScenario.js';
export { normaliseDeaths, observe } from './scenario/observe.js';
export { compareObserved, type Comparison } from './scenario/compare.js';
export { type ScenarioSimRun, simulateScenario } from './scenario/runScenario.js';
export {
  isScenarioProfile,
  profileFromRecordedOn,
  SCENARIO_PROFILES,
  type ScenarioProfile,
} from './scenario/scenarioProfile.js';
export {
  type BuiltTemplate,
  type DocumentedOutcome,
  type Ending,
  type LayoutHints,
  type ParamSpec,
  type ParamType,
  type ParamValue,
  type ParamValues,
  type RetryTemplate,
} from './templates/types.js';
export { coerceParam, type ResolvedParams, resolveParams } from './templates/params.js';
export {
  buildTemplate,
  type BuildTemplateResult,
  getTemplate,
  listTemplates,
  TEMPLATES,
} from './templates/registry.js';
export { binaryDelayRoutingKey, TemplateParamError } from './templates/binaryDelay.js';
export { activeQueuesOf, type BrokerOps, type MessageTrace, traceMessages, type TraceOptions } from './sim/messageTrace.js';
export {
  boundedRetryRuns,
  markAttemptCap,
  neverEnds,
  RETRY_RUN_MAX_EVENTS,
  type RetryRun,
} from './sim/retryEnding.js';
export {
  type LintContext,
  type LintFinding,
  type LintOptions,
  type LintRule,
  type LintSeverity,
} from './lint/types.js';
export { LINT_RULE_IDS, RULES } from './lint/rules.js';
export { lintDesign, lintTopology } from './lint/lintDesign.js';
export { type LintRuleDoc, RULE_DOCS, ruleDoc } from './lint/ruleDocs.js';
export { fileUri, findingLocation, type LintReportInput, lintSarif } from './lint/sarifReport.js';
export { lintGithub } from './lint/githubReport.js';
export { effectiveQueueArgs } from './lint/flow.js';
export { assumedConsumers, assumedPublishers, assumedWorkerId, type AssumedConsumers, type AssumeOptions, type QueueRole } from './lint/assumedConsumers.js';
export { arrivalKeys, type ArrivalKeys } from './lint/arrivalKeys.js';
export { policyTies, describeStake, type PolicyTie } from './model/policyTies.js';
export { describeEnding, parkedFate, type EndingContext } from './budget/endingText.js';
export { foldRuns, formatRuns, type Run } from './text/foldRuns.js';
export {
  type BudgetFailure,
  type BudgetOptions,
  compareStrategies,
  computeBudget,
  formatComparison,
  formatEnding,
  formatMs,
  type RetryBudget,
  type Risk,
  type RiskKind,
  type StrategyEntry,
} from './budget/budget.js';
export { EXPORT_FORMATS, exportDesign, type ExportFormat, isExportFormat } from './io/exporters.js';
export { exportRabbitmqadmin, type RabbitmqadminOptions } from './io/rabbitmqadmin.js';
export { exportRabbitmqadminV1, type RabbitmqadminV1Options } from './io/rabbitmqadminV1.js';
export { shellQuote } from './io/shellQuote.js';
export {
  DEFAULT_OPERATOR_CLUSTER,
  DNS1123_MAX,
  DNS1123_SUBDOMAIN,
  type ExportOptions,
  ExportOptionsError,
  validateExportOptions,
} from './io/exportOptions.js';
export { exportOperatorYaml, OPERATOR_API_VERSION, type OperatorKind, type OperatorOptions } from './io/operator.js';
export { exportTerraform, TERRAFORM_PROVIDER_SOURCE, type TerraformOptions } from './io/terraform.js';
export {
  AMQP_BINDING_VERSION,
  ASYNCAPI_VERSION,
  type AsyncApiOptions,
  exportAsyncApi,
  exportAsyncApiJson,
} from './io/asyncapi.js';
export { exportAmqplibScript } from './io/amqplibScript.js';
export { exportRascalConfig, type RascalConfig } from './io/rascal.js';
export { exportConsumerSkeleton } from './io/consumerSkeleton.js';
export { compilePortable, type PortableResult } from './io/portable.js';
export { jsonLocations, type SourcePosition } from './io/jsonLocations.js';
export { objectLocator, type ObjectLocation } from './io/objectLocations.js';
export { templateToScenario, type ToScenarioResult } from './templates/toScenario.js';
export { NOT_RECORDABLE, TEMPLATE_SCENARIOS, type TemplateScenarioSpec } from './templates/scenarioCatalog.js';
export {
  AT_LEAST_ONCE_NOTE,
  type BrokerSnapshot,
  type BrokerVersionProfile,
  browseEffect,
  type BrowseEffect,
  type CauseGroup,
  causeOf,
  type DeadLetterMessage,
  type DeathCause,
  designFromBroker,
  designGroup,
  destinationLabel,
  EXCEPTION_HEADERS,
  EXCHANGE_TYPES_ALL,
  firstDeath,
  type FirstDeath,
  groupByCause,
  groupNamesByPrefix,
  groupNodesByPrefix,
  type ImportedDesign,
  type ImportRole,
  LAYOUT_COLUMN_W,
  LAYOUT_ROW_H,
  layoutByPrefix,
  matchesFilter,
  namePrefix,
  type NodeGroup,
  parseRedriveFilter,
  parseRedriveTarget,
  planRedrive,
  type PlanRedriveInput,
  type PrefixLayout,
  profileForBrokerVersion,
  type QueueKind,
  queueKindOf,
  REDRIVE_AT_HEADER,
  REDRIVE_COUNT_HEADER,
  REDRIVE_MARKER_HEADERS,
  redriveContext,
  type RedriveContext,
  redriveDecision,
  fixedRedriveDecision,
  type RedriveDecision,
  type RedriveFilter,
  redriveHeaders,
  redriveMarker,
  type RedrivePlan,
  type RedriveCounts,
  RedriveTally,
  allowedBack,
  canaryBatchSize,
  checkCanaryOptions,
  DEFAULT_CANARY_WAIT_MS,
  isCopyBack,
  judgeBatch,
  parseMaxRefail,
  type BatchVerdict,
  type BatchWatch,
  type CanaryBatchReport,
  type CanaryOptionError,
  type CanaryOptions,
  type CanaryProgress,
  type CanaryStatus,
  type MaxRefail,
  type ReturnedCopy,
  predictBounce,
  type BounceKind,
  type BounceWarning,
  type DestinationState,
  applyJsonPatch,
  parseJsonPatch,
  type JsonPatchOp,
  type JsonValue,
  type PatchResult,
  editCopy,
  headerNameProblem,
  isEmptyEdit,
  parseSetHeader,
  REDRIVE_EDITED_HEADER,
  type EditedCopy,
  type RedriveEdit,
  type RedrivePlanItem,
  type RedriveTarget,
  routingTopology,
  type ScaffoldOptions,
  type SkippedObject,
  type SnapshotBinding,
  type SnapshotExchange,
  type SnapshotPolicy,
  type SnapshotQueue,
  xDeathNote,
} from './operate/index.js';
export { ordinal } from './text/ordinal.js';
export { collapseRepeats, joinCollapsed } from './text/collapseRepeats.js';
export {
  upgradeCheck,
  withAssumedTraffic,
  migrateDesignForUpgrade,
  type FateCheck,
  type UpgradeMigration,
  type UpgradeMigrateOptions,
  DECLARATION_RULES,
  checkDeclarations,
  type DeclarationRule,
  behaviourDifferences,
  fateText,
  failureText,
  isBlocking,
  type UpgradeFinding,
  type UpgradeFindingKind,
  type DeclarationFinding,
  type BehaviourFinding,
  type FateSummary,
  type UpgradeSource,
  type UpgradeOptions,
  type UpgradeReport,
} from './upgrade/index.js';
