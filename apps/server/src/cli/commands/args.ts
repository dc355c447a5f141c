/** A small argv parser: positionals, `--flag`, `--key value`, `--key=value`, repeatable keys. */
import { CliError } from './context.js';

export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Map<string, string[]>;
}

export interface ArgSpec {
  /** options that take a value */
  readonly values: readonly string[];
  /** options that are plain switches */
  readonly switches: readonly string[];
}

export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--') || a === '--') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const key = a.slice(2, eq < 0 ? undefined : eq);
    if (spec.switches.includes(key)) {
      if (eq >= 0) throw new CliError(`--${key} takes no value`, 2);
      flags.set(key, ['true']);
      continue;
    }
    if (!spec.values.includes(key)) throw new CliError(`unknown option --${key}`, 2);
    const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new CliError(`--${key} needs a value`, 2);
    flags.set(key, [...(flags.get(key) ?? []), v]);
  }
  return { positionals, flags };
}

export const flag = (a: ParsedArgs, k: string): boolean => a.flags.has(k);
export const value = (a: ParsedArgs, k: string): string | undefined => a.flags.get(k)?.at(-1);

/** a comma-separated `--k a,b` whose every item is one of `allowed`, or undefined when not given */
export function listValue<T extends string>(a: ParsedArgs, k: string, allowed: readonly T[]): T[] | undefined {
  const items = value(a, k)
    ?.split(',')
    .map((x) => x.trim());
  for (const x of items ?? [])
    if (!allowed.includes(x as T)) throw new CliError(`--${k}: "${x}" is not one of ${allowed.join(', ')}`, 2);
  return items as T[] | undefined;
}

export function intValue(a: ParsedArgs, k: string, min: number, max: number): number | undefined {
  const v = value(a, k);
  if (v === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(v)) throw new CliError(`--${k} must be an integer, got ${JSON.stringify(v)}`, 2);
  const n = Number(v);
  if (n < min || n > max) throw new CliError(`--${k} must be between ${min} and ${max}, got ${n}`, 2);
  return n;
}
