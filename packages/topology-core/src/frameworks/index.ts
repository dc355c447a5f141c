/** @retry-studio/topology-core/frameworks: each application framework as one object. Named exports, so what the apps use is visible here. */
export {
  FRAMEWORKS,
  frameworkDef,
  frameworkFix,
  frameworkTitle,
  fileKind,
  isAppConfigFile,
  retriesInStep,
} from './registry.js';
export { FRAMEWORK_TRAITS, type FrameworkTraits } from './traits.js';
export {
  AppConfigFailure,
  type AppConfigError,
  type AppFile,
  type AppFrameworkDef,
  type AppReading,
  type FileKind,
} from './types.js';
export type { KeyEntry, KeyTable } from './read/keyTable.js';
