/**
 * The options a load is written with (durations, rates, percentages, sizes, the broker profile),
 * read once for every command that takes them (rehearse, tune): the core's text/quantities parses,
 * this file turns its message into an exit-2 error naming the option.
 */
import type { BrokerProfileId } from '@retry-studio/topology-core/model';
import { parseBytes, parseDuration, parsePercent, parseRate, type Parsed } from '@retry-studio/topology-core/text';
import { value, type ParsedArgs } from './args.js';
import { CliError } from './context.js';

const read = (option: string, raw: string, parse: (s: string) => Parsed): number => {
  const r = parse(raw);
  if (!r.ok) throw new CliError(`--${option}: ${r.message}`, 2);
  return r.value;
};

/** `--k 90s` (repeatable: every value) */
export const durationsOption = (a: ParsedArgs, k: string): number[] => (a.flags.get(k) ?? []).map((raw) => read(k, raw, parseDuration));
export const durationOption = (a: ParsedArgs, k: string): number | undefined => {
  const v = value(a, k);
  return v === undefined ? undefined : read(k, v, parseDuration);
};
export const rateOption = (a: ParsedArgs, k: string): number | undefined => {
  const v = value(a, k);
  return v === undefined ? undefined : read(k, v, parseRate);
};
/** a share 0..1 from `2%` */
export const percentOption = (a: ParsedArgs, k: string): number | undefined => {
  const v = value(a, k);
  return v === undefined ? undefined : read(k, v, parsePercent);
};
export const bytesOption = (a: ParsedArgs, k: string): number | undefined => {
  const v = value(a, k);
  return v === undefined ? undefined : read(k, v, parseBytes);
};
/** a plain non-negative number (`--max-amplification 3`, `--processing-ms 20`) */
export const numberOption = (a: ParsedArgs, k: string): number | undefined => {
  const v = value(a, k);
  if (v === undefined) return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(v.trim())) throw new CliError(`--${k} must be a number, got ${JSON.stringify(v)}`, 2);
  return Number(v);
};

const PROFILES: readonly BrokerProfileId[] = ['3.10', '4.x', '4.3'];
export const profileOption = (a: ParsedArgs, k = 'profile'): BrokerProfileId | undefined => {
  const v = value(a, k);
  if (v === undefined) return undefined;
  if (!(PROFILES as readonly string[]).includes(v)) throw new CliError(`--${k} must be one of ${PROFILES.join(', ')}, got ${JSON.stringify(v)}`, 2);
  return v as BrokerProfileId;
};
