/**
 * Every framework import-app reads, one object each (types.ts AppFrameworkDef): detection, reader,
 * defaults with their sources, real keys, and the fix for each lint rule in the framework's own
 * terms. Adding a framework: its file, one import and one entry below, and its id in the design
 * format's list (model/source.ts APP_FRAMEWORKS; registry.test.ts checks the two agree).
 */
import type { AppFramework } from '../model/source.js';
import type { AppFrameworkDef, FileKind } from './types.js';
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

/** The fix for a lint rule in the framework's own terms, when it has one. */
export const frameworkFix = (id: AppFramework, ruleId: string): string | undefined =>
  FRAMEWORKS.find((x) => x.id === id)?.fixes[ruleId];

/** Whether every worker process of the framework's application retries in step (Celery's pool). */
export const retriesInStep = (id: AppFramework): boolean => FRAMEWORKS.find((x) => x.id === id)?.retriesInStep === true;

/** The kind of file by its extension; undefined: not one the readers know. */
export function fileKind(name: string): FileKind | undefined {
  if (/\.(ya?ml|properties|env)$/i.test(name) || /(^|[\\/])\.env(\.[\w-]+)?$/i.test(name)) return 'config';
  if (/\.(java|kt)$/i.test(name)) return 'java';
  if (/\.cs$/i.test(name)) return 'csharp';
  if (/\.py$/i.test(name)) return 'python';
  if (/\.(js|mjs|cjs|ts|mts|cts)$/i.test(name)) return 'javascript';
  if (/\.json$/i.test(name)) return 'json';
  return undefined;
}

/** A JSON file that is an application's configuration (Rascal's `vhosts` map), not a design or definitions export. */
export const isAppConfigJson = (text: string): boolean =>
  /"vhosts"\s*:\s*\{/.test(text.slice(0, 200_000)) &&
  !/"(rabbit_version|rabbitmq_version|format)"\s*:/.test(text.slice(0, 2000));

/** An application-configuration file that import-app reads (by its name, and for JSON by its text). */
export function isAppConfigFile(name: string, text?: string): boolean {
  const k = fileKind(name);
  if (k === undefined) return false;
  if (k === 'json') return text !== undefined && isAppConfigJson(text);
  return true;
}
