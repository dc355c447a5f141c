/** @retry-studio/topology-core/templates: the retry templates and their catalogue. Named exports, so what the apps use is visible here. */
export {
  type BuiltTemplate,
  type DocumentedOutcome,
  type LayoutHints,
  type ParamSpec,
  type ParamType,
  type ParamValue,
  type ParamValues,
  type RetryTemplate,
} from './types.js';
export { coerceParam, type ResolvedParams, resolveParams } from './params.js';
export { buildTemplate, type BuildTemplateResult, getTemplate, listTemplates, TEMPLATES } from './registry.js';
export { binaryDelayRoutingKey, TemplateParamError } from './binaryDelay.js';
export { templateToScenario, type ToScenarioResult } from './toScenario.js';
export { NOT_RECORDABLE, TEMPLATE_SCENARIOS, type TemplateScenarioSpec } from './scenarioCatalog.js';
export { type StatedFate, statedFate } from './statedFate.js';
