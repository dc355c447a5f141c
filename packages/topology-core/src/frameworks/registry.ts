/**
 * Every framework import-app reads, one object each (types.ts AppFrameworkDef): detection, reader,
 * defaults with their sources, real keys, and the fix for each lint rule in the framework's own
 * terms. Adding a framework: its file, one import and one entry below, its title and fix texts in
 * traits.ts (what lint reads without loading the readers), and its id in the design format's list
 * (model/source.ts APP_FRAMEWORKS; registry.test.ts checks the two agree).
 */
import type { AppFramework } from '../model/source.js';
import type { AppFrameworkDef } from './types.js';
import { springBoot } from './springBoot.js';
import { springCloudStream } from './springCloudStream.js';
import { springAmqp } from './springAmqp.js';
import { massTransit } from './massTransit.js';
import { nServiceBus } from './nServiceBus.js';
import { celery } from './celery.js';
import { rascal } from './rascal.js';
import { nestjsRabbitmq } from './nestjsRabbitmq.js';

export const FRAMEWORKS: readonly AppFrameworkDef[] = [
  springCloudStream,
  springBoot,
  springAmqp,
  nServiceBus,
  massTransit,
  celery,
  rascal,
  nestjsRabbitmq,
];

export function frameworkDef(id: AppFramework): AppFrameworkDef {
  const f = FRAMEWORKS.find((x) => x.id === id);
  if (!f) throw new Error(`no framework ${id} is registered`);
  return f;
}

export { frameworkFix, frameworkTitle, retriesInStep } from './traits.js';
export { appFileKind as fileKind, isAppConfigFile, isAppConfigJson } from '../model/appFileKind.js';
