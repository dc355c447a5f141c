import { getTemplate } from '@retry-studio/topology-core/templates';
import type { Calibration } from '@retry-studio/topology-core/calibration';
import type { Design } from '@retry-studio/topology-core/model';
import {
  checkLoad,
  rehearse,
  rehearseRuns,
  withTargetWorkers,
  type RehearsalLoad,
  type RehearsalReport,
} from '@retry-studio/topology-core/rehearse';
import { flag, intValue, parseArgs, value, type ParsedArgs } from './args.js';
import { CliError, loadFileVhosts, type CliIo, type LoadedFile } from './context.js';
import { rehearseSize } from '@retry-studio/topology-core/sizing';
import { refuseOverBudget } from './workBudget.js';
import { withAssumedActors } from './assumedActors.js';
import { withAdHocActors } from './simulate.js';
import { buildTemplateOrFail, templateParams } from './templateArgs.js';
import { describeIssue, loadFromArgs, readCalibrationOption } from './rehearseArgs.js';
import { formatRehearsal } from './rehearseText.js';

export const REHEARSE_USAGE =
  'rehearse FILE|TEMPLATE_ID [--param k=v ...] [--vhost V] --rate N --duration D [--consumer-outage|--outage TARGET@START+LENGTH ...] [--error-rate P] [--poison P] [--processing-ms MS] [--concurrency N] [--body-bytes B] [--profile 3.10|4.x|4.3] [--load|--scenario FILE] [--seed S] [--runs N] [--publish EXCHANGE:ROUTING_KEY ...] [--consumer QUEUE=ack|reject|requeue|worker ...] [--calibration FILE] [--broker-memory BYTES] [--disk-free BYTES] [--json] [--verify-on AMQP_URL [--management-url URL]]';

interface Subject {
  readonly label: string;
  readonly vhost?: string;
  readonly design: Design;
}

const adHoc = (a: ParsedArgs): boolean =>
  (a.flags.get('publish') ?? []).length > 0 || (a.flags.get('consumer') ?? []).length > 0;

/** a document's design with its actors: --publish/--consumer, else (a definitions file) the ones lint assumes, said */
function actorsOf(doc: LoadedFile, a: ParsedArgs, io: CliIo, label: string): Design {
  if (adHoc(a) || doc.kind !== 'definitions') return withAdHocActors(doc.design, a);
  const r = withAssumedActors(doc.design);
  if (r.note) io.err(`${label}: ${r.note.replace('simulated with', 'rehearsed with')}\n`);
  return r.design;
}

/** the template, or each vhost of the file (a whole-broker file is rehearsed per vhost, and says so) */
async function subjectsOf(subject: string, a: ParsedArgs, io: CliIo): Promise<Subject[]> {
  if (getTemplate(subject))
    return [
      { label: subject, design: withAdHocActors(buildTemplateOrFail(subject, templateParams(subject, a)).design, a) },
    ];
  const docs = await loadFileVhosts(io, subject, { vhost: value(a, 'vhost') });
  if (docs.length > 1)
    io.err(
      `${subject}: ${docs.length} vhosts (${docs.map((d) => JSON.stringify(d.vhost)).join(', ')}): each rehearsed on its own (--vhost V for one)\n`,
    );
  const out: Subject[] = [];
  let why = '';
  for (const d of docs) {
    const label = docs.length > 1 ? `${subject} vhost ${JSON.stringify(d.vhost)}` : subject;
    const design = actorsOf(d, a, io, label);
    // policies for queues the applications declare (RabbitMQ's case1): say that, not "the design has no publisher"
    if (design.publishers.length === 0 && design.topology.queues.length === 0) {
      why = `${label}: no publisher to rehearse (and none can be assumed: the file declares no queue; it holds ${design.topology.policies?.length ?? 0} polic${design.topology.policies?.length === 1 ? 'y' : 'ies'} and ${design.topology.exchanges.length} exchange(s))`;
      if (docs.length > 1) io.err(`${why}: not rehearsed\n`);
      continue;
    }
    out.push({ label, ...(d.vhost !== undefined && docs.length > 1 ? { vhost: d.vhost } : {}), design });
  }
  if (out.length === 0) throw new CliError(why, 2);
  return out;
}

interface Rehearsed {
  readonly subject: Subject;
  readonly report: RehearsalReport;
}

async function verifyOn(design: Design, load: RehearsalLoad, a: ParsedArgs, io: CliIo, calibration?: Calibration) {
  const url = value(a, 'verify-on')!;
  // the broker layer is loaded only when a broker is asked for
  const { brokerTarget, verifyOnBroker, VerifyTargetError } = await import('../../rehearse/verifyOnBroker.js');
  let target;
  try {
    target = await brokerTarget(url, value(a, 'management-url'));
  } catch (e) {
    // an unreachable or refusing broker: nothing was declared
    if (e instanceof VerifyTargetError) throw new CliError(e.message, 2, { usageHint: false });
    throw e;
  }
  // the prediction follows the broker's rules unless --profile (or the scenario) says otherwise
  const onBroker = load.profile !== undefined ? load : { ...load, profile: target.profile };
  if (load.profile === undefined)
    io.err(`rehearsed with RabbitMQ ${target.profile} rules, the broker's (RabbitMQ ${target.version})\n`);
  const predicted = rehearse(design, onBroker, calibration ? { calibration } : {});
  return { ...predicted, broker: await verifyOnBroker(design, onBroker, { target, predicted, log: (s) => io.err(s) }) };
}

export async function rehearseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'param',
      'vhost',
      'rate',
      'duration',
      'outage',
      'consumer-outage',
      'error-rate',
      'poison',
      'processing-ms',
      'concurrency',
      'body-bytes',
      'profile',
      'scenario',
      'load',
      'seed',
      'runs',
      'publish',
      'consumer',
      'calibration',
      'broker-memory',
      'disk-free',
      'verify-on',
      'management-url',
    ],
    switches: ['json'],
  });
  const subject = a.positionals[0];
  if (!subject || a.positionals.length > 1) throw new CliError(`usage: ${REHEARSE_USAGE}`, 2);
  const { load, outageSpecs, scenario } = await loadFromArgs(a, io);
  const runs = intValue(a, 'runs', 1, 1000) ?? 1;
  const calFile = value(a, 'calibration');
  const calibration = calFile !== undefined ? await readCalibrationOption(io, calFile) : undefined;
  const subjects = await subjectsOf(subject, a, io);
  if (subjects.length > 1 && value(a, 'verify-on') !== undefined)
    throw new CliError(`--verify-on runs one vhost: the file has ${subjects.length}; name one with --vhost`, 2);
  const done: Rehearsed[] = [];
  const skipped: string[] = [];
  for (const s of subjects) {
    const { design, notes } = withTargetWorkers(s.design, load);
    for (const note of notes) io.err(`${s.label}: ${note}\n`);
    const issues = checkLoad(design, load);
    // a target that only some vhosts have: those are rehearsed, the others said
    if (subjects.length > 1 && issues.length > 0 && issues.every((i) => i.code === 'target-unknown')) {
      skipped.push(s.vhost ?? s.label);
      continue;
    }
    if (issues.length > 0)
      throw new CliError(
        `${subjects.length > 1 ? `${s.label}: ` : ''}${issues.map((i) => describeIssue(i, load, outageSpecs, scenario)).join('\n')}`,
        2,
      );
    refuseOverBudget(rehearseSize(design, load));
    const options = calibration ? { calibration } : {};
    const report =
      value(a, 'verify-on') !== undefined
        ? await verifyOn(design, load, a, io, calibration)
        : runs > 1
          ? rehearseRuns(design, load, runs, options)
          : rehearse(design, load, options);
    done.push({ subject: s, report });
  }
  if (done.length === 0)
    throw new CliError(
      `${subject}: no vhost has the outage's target (${outageSpecs.join(', ')}); name a vhost with --vhost and a consumer or queue of it`,
      2,
    );
  if (skipped.length > 0)
    io.err(
      `not rehearsed: vhost ${skipped.map((v) => JSON.stringify(v)).join(', ')} (no consumer or queue there by the outage's name)\n`,
    );
  if (flag(a, 'json'))
    io.out(
      compactJson(
        done.length === 1 && subjects.length === 1
          ? done[0]!.report
          : { vhosts: done.map((d) => ({ vhost: d.subject.vhost, report: d.report })) },
      ) + '\n',
    );
  else
    for (const d of done) {
      if (subjects.length > 1) io.out(`== vhost ${JSON.stringify(d.subject.vhost)}\n`);
      io.out(formatRehearsal(d.subject.label, d.report));
    }
  // bad news: a hot loop, or an alarm that blocks every publisher
  return done.some((d) => d.report.loops.length > 0 || d.report.node.alarms.length > 0) ? 1 : 0;
}

/** indented JSON with number arrays (the depth series) on one line each */
export function compactJson(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(
    /\[\s+(-?[0-9.e+-]+(?:,\s+-?[0-9.e+-]+)*)\s+\]/g,
    (_m, inner: string) => `[${inner.replace(/,\s+/g, ', ')}]`,
  );
}
