/** `retry-studio tune`: strategies and parameters searched against a failure profile and goals (the core's tune floor). */
import { formatTune, resolveTuneInput, tune, type TuneInput } from '@retry-studio/topology-core/tune';
import type { Design } from '@retry-studio/topology-core/model';
import { flag, intValue, parseArgs, value } from './args.js';
import { perSecondBinMs } from '@retry-studio/topology-core/rehearse';
import { tuneSize } from '@retry-studio/topology-core/sizing';
import { refuseOverBudget } from './workBudget.js';
import { CliError, loadFile, writeText, type CliIo } from './context.js';
import { withAssumedActors } from './assumedActors.js';
import { parseBytes, parseDuration, parseRate, parseShare, readCalibrationOption } from './rehearseArgs.js';
import { BROKER_PROFILE_IDS, type BrokerProfileId } from '@retry-studio/topology-core/model';

type Parse = (option: string, text: string) => number;
const PROFILES: readonly string[] = BROKER_PROFILE_IDS;
const num = (text: string, option: string): number => {
  if (!/^\s*[0-9]+(?:\.[0-9]+)?\s*$/.test(text)) throw new CliError(`${option}: "${text}" is not a number`, 2);
  return Number(text);
};
export const TUNE_USAGE =
  'tune [--rate N] [--duration D] [--outage-length D ...] [--error-rate P] [--poison P] [--processing-ms MS] [--concurrency N] [--body-bytes B] [--profile 3.10|4.x|4.3] ' +
  '[--deadline D] [--deadline-share P] [--max-amplification X] [--max-memory BYTES] [--max-depth N] [--no-plugins] [--strategies ID,...] [--from FILE] [--calibration FILE] [--broker-memory BYTES] [--disk-free BYTES] [--json] [--out FILE]';

async function fromDesign(io: CliIo, file: string | undefined): Promise<Design | undefined> {
  if (file === undefined) return undefined;
  const doc = await loadFile(io, file);
  // a definitions file is tuned with the consumers and publishers lint assumes
  const { design, note } =
    doc.kind === 'definitions' ? withAssumedActors(doc.design) : { design: doc.design, note: undefined };
  if (note) io.err(`${file}: ${note}\n`);
  if (design.publishers.length === 0)
    throw new CliError(
      `--from ${file}: no publisher to rehearse (and none can be assumed: no exchange routes to a queue)`,
      2,
    );
  return design;
}

export async function tuneCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'rate',
      'duration',
      'outage-length',
      'error-rate',
      'poison',
      'processing-ms',
      'concurrency',
      'body-bytes',
      'profile',
      'deadline',
      'deadline-share',
      'max-amplification',
      'max-memory',
      'max-depth',
      'strategies',
      'from',
      'out',
      'calibration',
      'broker-memory',
      'disk-free',
    ],
    switches: ['json', 'no-plugins'],
  });
  if (a.positionals.length > 0)
    throw new CliError(`unexpected ${JSON.stringify(a.positionals[0])}; usage: ${TUNE_USAGE}`, 2);
  const read = (k: string, parse: Parse): number | undefined => {
    const v = value(a, k);
    return v === undefined ? undefined : parse(`--${k}`, v);
  };
  const profile = value(a, 'profile');
  if (profile !== undefined && !PROFILES.includes(profile))
    throw new CliError(`--profile must be one of ${PROFILES.join(', ')}, got "${profile}"`, 2);
  const input: TuneInput = {
    rate: read('rate', parseRate) ?? 100,
    outageLengthsMs: (a.flags.get('outage-length') ?? []).map((t) => parseDuration('--outage-length', t)),
    ...opt('durationMs', read('duration', parseDuration)),
    ...opt('errorRate', read('error-rate', parseShare)),
    ...opt('poison', read('poison', parseShare)),
    ...opt(
      'processingMs',
      read('processing-ms', (o, t) => num(t, o)),
    ),
    ...opt('concurrency', intValue(a, 'concurrency', 1, 1_000_000)),
    ...opt('bodyBytes', read('body-bytes', parseBytes)),
    ...opt('profile', profile as BrokerProfileId | undefined),
    ...opt('deadlineMs', read('deadline', parseDuration)),
    ...opt('deadlineShare', read('deadline-share', parseShare)),
    ...opt(
      'maxAmplification',
      read('max-amplification', (o, t) => num(t, o)),
    ),
    ...opt('maxMemoryBytes', read('max-memory', parseBytes)),
    ...opt('maxDepth', intValue(a, 'max-depth', 0, Number.MAX_SAFE_INTEGER)),
    ...(flag(a, 'no-plugins') ? { noPlugins: true } : {}),
    ...opt(
      'strategies',
      value(a, 'strategies')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    ...opt('from', await fromDesign(io, value(a, 'from'))),
    ...opt('brokerMemoryBytes', read('broker-memory', parseBytes)),
    ...opt('diskFreeBytes', read('disk-free', parseBytes)),
  };
  const calFile = value(a, 'calibration');
  const calibration = calFile !== undefined ? await readCalibrationOption(io, calFile) : undefined;
  const resolved = resolveTuneInput(input);
  if (!resolved.ok) throw new CliError(resolved.issues.map((i) => `--${i.option}: ${i.message}`).join('\n'), 2);
  refuseOverBudget(tuneSize(resolved));
  const binMs = perSecondBinMs(resolved.profile.durationMs);
  if (binMs > 1000) io.err(`note: per-second figures are averages over ${binMs / 1000} s windows (a run this long)\n`);
  const result = tune({
    profile: resolved.profile,
    goals: resolved.goals,
    templates: resolved.templates,
    ...opt('from', resolved.from),
    ...opt('calibration', calibration),
  });
  if (flag(a, 'json'))
    io.out(
      JSON.stringify(
        {
          feasible: result.feasible,
          recommendations: result.recommendations,
          ...(result.infeasibleBecause ? { infeasibleBecause: result.infeasibleBecause } : {}),
          pareto: result.pareto,
          profile: resolved.profile,
          goals: resolved.goals,
          stats: result.stats,
        },
        null,
        2,
      ) + '\n',
    );
  else io.out(formatTune(result, resolved.profile, resolved.goals) + '\n');
  const out = value(a, 'out');
  const best = result.recommendations[0];
  if (out && best) {
    await writeText(io, out, JSON.stringify(best.design, null, 2) + '\n');
    io.err(`wrote the best design (${best.strategy}) to ${out}\n`);
  } else if (out) io.err(`nothing feasible: ${out} not written\n`);
  return result.feasible ? 0 : 1;
}

const opt = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } =>
  v === undefined ? {} : ({ [k]: v } as { [P in K]: V });
