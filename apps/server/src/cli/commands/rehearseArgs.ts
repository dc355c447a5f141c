/**
 * The load of `rehearse` from its flags (and a `--scenario` file): durations `90s`, `10m`,
 * `1h`, `500ms` (a bare number is seconds); rates `500` or `500/s`; percentages `2%` (or a
 * share `0.02`); outages `TARGET@START+LENGTH`. A core issue is reported under the option that
 * gave the value.
 */
import { BROKER_PROFILE_IDS, type BrokerProfileId } from '@retry-studio/topology-core/model';
import { readLoadFile, type RehearsalLoad, type TargetLoad } from '@retry-studio/topology-core/rehearse';
import type { ValidationIssue } from '@retry-studio/topology-core/model';
import { readBytes, readDuration, readOutage, readRate, readShare } from '@retry-studio/topology-core/text';
import { readCalibration, type Calibration } from '@retry-studio/topology-core/calibration';
import { value, type ParsedArgs } from './args.js';
import { CliError, readText, type CliIo } from './context.js';

export function parseDuration(option: string, text: string): number {
  const ms = readDuration(text);
  if (ms === undefined) throw new CliError(`${option}: "${text}" is not a duration (like 90s, 10m, 1h, 500ms)`, 2);
  return ms;
}

export function parseRate(option: string, text: string): number {
  const rate = readRate(text);
  if (rate === undefined) throw new CliError(`${option}: "${text}" is not a rate (like 500 or 500/s)`, 2);
  return rate;
}

/** `2%` or a share `0.02` */
export function parseShare(option: string, text: string): number {
  const share = readShare(text);
  if (share === undefined) throw new CliError(`${option}: "${text}" is not a percentage (like 2%)`, 2);
  return share;
}

/** sizes: `512`, `4kB`, `1MB`, `2GiB` (kB = 1000, KiB = 1024) */
export function parseBytes(option: string, text: string): number {
  const b = readBytes(text);
  if (b === undefined) throw new CliError(`${option}: "${text}" is not a size in bytes (like 512, 4kB, 1GB, 8GiB)`, 2);
  return b;
}

/** `--calibration FILE`: a retry-calibration/1 file, or exit 2 naming what is wrong with it */
export async function readCalibrationOption(io: CliIo, file: string): Promise<Calibration> {
  const text = await readText(io, file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--calibration ${file}: not a calibration: not JSON (${(e as Error).message})`, 2);
  }
  const r = readCalibration(json);
  if (!r.ok)
    throw new CliError(
      r.issues.map((i) => `--calibration ${file}: ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n'),
      2,
    );
  return r.calibration;
}

function parseNumber(option: string, text: string): number {
  if (!/^\s*-?[0-9]+(?:\.[0-9]+)?\s*$/.test(text)) throw new CliError(`${option}: "${text}" is not a number`, 2);
  return Number(text);
}

/** `TARGET@START+LENGTH`, e.g. `worker@5m+10m` */
export function parseOutage(text: string, option = '--outage'): TargetLoad {
  const o = readOutage(text);
  if (!o) {
    // a start or length that is not a duration is said as such
    const at = text.lastIndexOf('@');
    const plus = text.indexOf('+', at);
    if (at > 0 && plus >= 0) [text.slice(at + 1, plus), text.slice(plus + 1)].forEach((d) => parseDuration(option, d));
    throw new CliError(`${option}: "${text}" must be TARGET@START+LENGTH (like worker@5m+10m)`, 2);
  }
  if (o.lengthMs <= 0) throw new CliError(`${option} ${text}: the length must be above 0`, 2);
  return { target: o.target, consumerOutages: [{ startMs: o.startMs, endMs: o.startMs + o.lengthMs }] };
}

const PROFILES: readonly string[] = BROKER_PROFILE_IDS;

/** the load: the --scenario file's, with every flag given on top (consumerOutages added to its targets) */
export async function loadFromArgs(
  a: ParsedArgs,
  io: CliIo,
): Promise<{ load: RehearsalLoad; outageSpecs: string[]; scenario?: string }> {
  // --load FILE (retry-load/1) says what it is; --scenario FILE (documented first) is the same
  const loadOption = value(a, 'load') !== undefined ? '--load' : '--scenario';
  const scenario = value(a, 'load') ?? value(a, 'scenario');
  let base: Partial<RehearsalLoad> = {};
  if (scenario !== undefined) {
    const text = await readText(io, scenario);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new CliError(`${loadOption} ${scenario}: not JSON: ${(e as Error).message}`, 2);
    }
    const read = readLoadFile(json);
    if (!read.ok)
      throw new CliError(
        read.issues.map((i) => `${loadOption} ${scenario}: ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n'),
        2,
      );
    if (read.migrated) io.err(`${loadOption} ${scenario}: ${read.migrated}\n`);
    base = read.load;
  }
  const rate = value(a, 'rate');
  const duration = value(a, 'duration');
  // `--consumer-outage` says what it is; `--outage` (documented first) is the same
  const given = [
    ...(a.flags.get('outage') ?? []).map((spec) => ({ flag: '--outage', spec })),
    ...(a.flags.get('consumer-outage') ?? []).map((spec) => ({ flag: '--consumer-outage', spec })),
  ];
  const outageSpecs = given.map((g) => `${g.flag} ${g.spec}`);
  const num = (k: string, parse: (o: string, t: string) => number): number | undefined => {
    const v = value(a, k);
    return v === undefined ? undefined : parse(`--${k}`, v);
  };
  const profile = value(a, 'profile');
  if (profile !== undefined && !PROFILES.includes(profile))
    throw new CliError(`--profile must be one of ${PROFILES.join(', ')}, got "${profile}"`, 2);
  if (rate === undefined && base.rate === undefined && base.phases === undefined)
    throw new CliError(
      '--rate is required (messages per second, like 500 or 500/s), or a --scenario file with rate or phases',
      2,
    );
  if (duration === undefined && base.durationMs === undefined)
    throw new CliError('--duration is required (like 90s, 10m, 1h), or a --scenario file with durationMs', 2);
  const extra = {
    ...(rate !== undefined ? { rate: parseRate('--rate', rate), phases: undefined } : {}),
    ...(duration !== undefined ? { durationMs: parseDuration('--duration', duration) } : {}),
    ...opt('errorRate', num('error-rate', parseShare)),
    ...opt('poison', num('poison', parseShare)),
    ...opt('processingMs', num('processing-ms', parseNumber)),
    ...opt('concurrency', num('concurrency', parseNumber)),
    ...opt('bodyBytes', num('body-bytes', parseNumber)),
    ...opt('seed', num('seed', parseNumber)),
    ...opt('brokerMemoryBytes', num('broker-memory', parseBytes)),
    ...opt('diskFreeBytes', num('disk-free', parseBytes)),
    ...(profile !== undefined ? { profile: profile as BrokerProfileId } : {}),
  };
  const targets = [...(base.targets ?? []), ...given.map((g) => parseOutage(g.spec, g.flag))];
  const load = { ...base, ...extra, targets } as RehearsalLoad;
  return { load, outageSpecs, ...(scenario !== undefined ? { scenario } : {}) };
}

const opt = <K extends string>(k: K, v: number | undefined): Partial<Record<K, number>> =>
  v === undefined ? {} : ({ [k]: v } as Record<K, number>);

const OPTION_OF: Record<string, string> = {
  rate: '--rate',
  phases: '--rate',
  durationMs: '--duration',
  errorRate: '--error-rate',
  poison: '--poison',
  processingMs: '--processing-ms',
  concurrency: '--concurrency',
  bodyBytes: '--body-bytes',
  profile: '--profile',
  seed: '--seed',
  brokerMemoryBytes: '--broker-memory',
  diskFreeBytes: '--disk-free',
};

/** a core issue, said under the option (or the scenario file's field) that gave the value */
export function describeIssue(
  i: ValidationIssue,
  load: RehearsalLoad,
  outageSpecs: readonly string[],
  scenario: string | undefined,
): string {
  const m = /^targets\[(\d+)\]/.exec(i.path);
  if (m) {
    const idx = Number(m[1]);
    const fromFile = load.targets?.length ? load.targets.length - outageSpecs.length : 0;
    if (idx >= fromFile) return `${outageSpecs[idx - fromFile]}: ${i.message}`;
    return `--scenario ${scenario}: ${i.path}: ${i.message}`;
  }
  const top = i.path.split(/[.[]/)[0] ?? i.path;
  const opt = OPTION_OF[top];
  if (opt && !(scenario !== undefined && top === 'phases')) return `${opt}: ${i.message}`;
  return `${scenario !== undefined ? `--scenario ${scenario}: ` : ''}${i.path}: ${i.message}`;
}
