/** @retry-studio/topology-core/io: importers and exporters (definitions, design JSON, terraform, rabbitmqadmin, operator, asyncapi, code). Named exports, so what the apps use is visible here. */
export {
  type DefinitionsJson,
  designFromTopology,
  exportDefinitions,
  type ExportDefinitionsOptions,
  importDefinitions,
  type ImportDefinitionsOptions,
  type ImportDefinitionsResult,
  looksLikeDefinitions,
} from './definitions.js';
export { readDesignJson, writeDesignJson } from './designJson.js';
export { designFromScenario, type DocumentKind, loadDocument, type LoadedDocument, loadValue } from './load.js';
export { EXPORT_FORMATS, exportDesign, type ExportFormat, isExportFormat } from './exporters.js';
export { exportRabbitmqadmin, type RabbitmqadminOptions } from './rabbitmqadmin.js';
export { exportRabbitmqadminV1, type RabbitmqadminV1Options } from './rabbitmqadminV1.js';
export { shellQuote } from './shellQuote.js';
export {
  DEFAULT_OPERATOR_CLUSTER,
  DNS1123_MAX,
  DNS1123_SUBDOMAIN,
  type ExportOptions,
  ExportOptionsError,
  validateExportOptions,
} from './exportOptions.js';
export { exportOperatorYaml, OPERATOR_API_VERSION, type OperatorKind, type OperatorOptions } from './operator.js';
export { exportTerraform, TERRAFORM_PROVIDER_SOURCE, type TerraformOptions } from './terraform.js';
export {
  AMQP_BINDING_VERSION,
  ASYNCAPI_VERSION,
  type AsyncApiOptions,
  exportAsyncApi,
  exportAsyncApiJson,
} from './asyncapi.js';
export { exportAmqplibScript } from './amqplibScript.js';
export { exportRascalConfig, type RascalConfig } from './rascal.js';
export { exportConsumerSkeleton } from './consumerSkeleton.js';
export { compilePortable, type PortableResult } from './portable.js';
export { jsonLocations, type SourcePosition } from './jsonLocations.js';
export { objectLocator, type ObjectLocation } from './objectLocations.js';
export { exportDefinitionsVhosts } from './definitions.js';
export { loadDocumentVhosts, loadValueVhosts, parseJsonText } from './load.js';
export { parseDocumentText, type DocumentText } from './documentText.js';
export {
  fileStem,
  IMPORT_NOTE_CODES,
  nameFromContent,
  readDocumentFile,
  readDocumentText,
  type ReadDocument,
  type ReadDocumentOptions,
  type ReadDocumentResult,
} from './readDocumentFile.js';
export {
  describeVhost,
  describeVhostsWithObjects,
  objectCount,
  vhostContents,
  type VhostContents,
} from './definitionsVhosts.js';
export { describeJsonError } from './jsonSyntax.js';
export { exportVhosts, MULTI_VHOST_FORMATS, type VhostDesign } from './exportVhosts.js';
export { type SkippedBinding, UNDECLARED_BINDING_END_ON_BROKERS } from './brokerObjects.js';
export type { PluginPolicyKey } from './pluginPolicyKeys.js';
