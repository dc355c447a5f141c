/**
 * retry-load/1: a rehearsal's load as a file (`rehearse --load FILE`, `--scenario FILE`), the
 * core's RehearsalLoad with its format named. A file written before the format (no `format`)
 * is read by its old names (`targets[].outages`, today `consumerOutages`) and said so; another
 * format is refused, named.
 */
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import type { RehearsalLoad, TargetLoad } from './load.js';

export const LOAD_FORMAT = 'retry-load/1';

export type ReadLoadResult =
  | {
      readonly ok: true;
      readonly load: Partial<RehearsalLoad>;
      /** what was read by an old name (an unversioned file), to say */
      readonly migrated?: string;
    }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** today's names for an unversioned load: `targets[].outages` is `consumerOutages` */
export function migrateLoad(value: { readonly [k: string]: unknown }): {
  load: Partial<RehearsalLoad>;
  renamed: number;
} {
  let renamed = 0;
  const targets = Array.isArray(value.targets)
    ? value.targets.map((t: unknown) => {
        if (!isPlainObject(t) || !('outages' in t) || 'consumerOutages' in t) return t;
        renamed++;
        const { outages, ...rest } = t;
        return { ...rest, consumerOutages: outages };
      })
    : value.targets;
  return { load: { ...value, ...(targets !== undefined ? { targets: targets as TargetLoad[] } : {}) }, renamed };
}

export function readLoadFile(value: unknown): ReadLoadResult {
  if (!isPlainObject(value))
    return {
      ok: false,
      issues: [
        {
          path: '',
          code: 'load-shape',
          message: `must be a JSON object: {"format": "${LOAD_FORMAT}", "rate", "durationMs", "targets", ...}`,
        },
      ],
    };
  if (value.format === undefined) {
    const { load, renamed } = migrateLoad(value);
    return {
      ok: true,
      load,
      migrated: `no "format": read as an unversioned load file${renamed > 0 ? ` (targets[].outages read as consumerOutages)` : ''}; add "format": "${LOAD_FORMAT}"`,
    };
  }
  if (value.format !== LOAD_FORMAT)
    return {
      ok: false,
      issues: [
        {
          path: 'format',
          code: 'load-format',
          message: `"format" is ${JSON.stringify(value.format)}: a rehearsal load is "${LOAD_FORMAT}"${typeof value.format === 'string' && value.format.startsWith('retry-scenario/') ? ' (a retry-scenario file is for conformance, not a load)' : ''}`,
        },
      ],
    };
  const { format: _format, ...load } = value;
  return { ok: true, load: load as Partial<RehearsalLoad> };
}

/** the load as a retry-load/1 file's JSON */
export const loadFileOf = (load: RehearsalLoad): { readonly format: typeof LOAD_FORMAT } & RehearsalLoad => ({
  format: LOAD_FORMAT,
  ...load,
});
