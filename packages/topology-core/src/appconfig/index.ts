/** @retry-studio/topology-core/appconfig: an application's retry configuration (Spring, MassTransit, NServiceBus, Celery) read as a design. Named exports, so what the apps use is visible here. */
export { importAppConfig, type AppNote, type ImportAppOptions, type ImportedApp } from './importApp.js';
export { detectFrameworks, fileKind, isAppConfigFile, type FileKind } from './detect.js';
export { AppConfigFailure, type AppConfigError, type AppFile, type AppReading, type ReadOptions } from './types.js';
export { DEFAULTS, type FrameworkDefault } from './defaults.js';
export { describeApp } from './describeApp.js';
export { appJourneys, type AppJourney } from './journey.js';
