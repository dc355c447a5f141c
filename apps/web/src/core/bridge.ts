/**
 * The one place the web reaches into topology-core for APIs that land over time (templates,
 * lint, exporters, simulator, budget). Looked up on the module namespace so the app builds
 * and says "not available yet" honestly before an API exists, instead of faking it.
 */
import * as core from '@retry-studio/topology-core';

const ns = core as unknown as Record<string, unknown>;

export function coreFn<F extends (...args: never[]) => unknown>(name: string): F | undefined {
  const f = ns[name];
  return typeof f === 'function' ? (f as F) : undefined;
}

export function coreValue<T>(name: string): T | undefined {
  return ns[name] as T | undefined;
}
