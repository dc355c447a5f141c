/** @retry-studio/topology-core/appconfig: an application's retry configuration (Spring, MassTransit, NServiceBus, Celery, Rascal, NestJS) read as a design. Named exports, so what the apps use is visible here. */
export { importAppConfig, type AppNote, type ImportAppOptions, type ImportedApp } from './importApp.js';
export { MAX_APP_FILE_CHARS } from './appInputs.js';
export {
  AppConfigFailure,
  type AppConfigError,
  type AppFile,
  type AppReading,
  type ReadOptions,
  type RunnableConsumer,
} from '../frameworks/types.js';
export { FRAMEWORKS, fileKind, isAppConfigFile, frameworkDef } from '../frameworks/registry.js';
export { bootLineOf, type BootLine } from '../frameworks/springBoot.js';
export type { FileKind, AppFrameworkDef } from '../frameworks/types.js';
export type { FrameworkDefault } from '../frameworks/read/sourceBuilder.js';
export { APP_NOTES_HEADING, describeApp } from './describeApp.js';
export { appJourneys, type AppJourney } from './journey.js';
