import { getTemplate } from '@retry-studio/topology-core/templates';
import type { Design } from '@retry-studio/topology-core/model';
import { checkLoad, rehearse, type RehearsalReport } from '@retry-studio/topology-core/rehearse';
import { flag, parseArgs, value } from './args.js';
import { rehearseSize } from '@retry-studio/topology-core/sizing';
import { refuseOverBudget } from './workBudget.js';
import { CliError, loadFile, type CliIo } from './context.js';
import { withAssumedActors } from './assumedActors.js';
import { buildTemplateOrFail, templateParams } from './templateArgs.js';
import { describeIssue, loadFromArgs } from './rehearseArgs.js';
import { formatRehearsal } from './rehearseText.js';

export const REHEARSE_USAGE =
  'rehearse FILE|TEMPLATE_ID [--param k=v ...] [--vhost V] --rate N --duration D [--outage TARGET@START+LENGTH ...] [--error-rate P] [--poison P] [--processing-ms MS] [--concurrency N] [--body-bytes B] [--profile 3.10|4.x|4.3] [--scenario FILE] [--seed S] [--json] [--verify-on AMQP_URL [--management-url URL]]';

async function designOf(subject: string, a: ReturnType<typeof parseArgs>, io: CliIo): Promise<Design> {
  if (getTemplate(subject)) return buildTemplateOrFail(subject, templateParams(subject, a)).design;
  const doc = await loadFile(io, subject, { vhost: value(a, 'vhost') });
  if (doc.kind !== 'definitions') return doc.design;
  // a definitions file has no actors: the ones lint assumes, said on stderr
  const r = withAssumedActors(doc.design);
  if (r.note) io.err(`${subject}: ${r.note.replace('simulated with', 'rehearsed with')}\n`);
  // policies for queues the applications declare (RabbitMQ's case1): say that, not "the design has no publisher"
  if (r.design.publishers.length === 0 && r.design.topology.queues.length === 0)
    throw new CliError(
      `${subject}: no publisher to rehearse (and none can be assumed: the file declares no queue; it holds ${r.design.topology.policies?.length ?? 0} polic${r.design.topology.policies?.length === 1 ? 'y' : 'ies'} and ${r.design.topology.exchanges.length} exchange(s))`,
      2,
    );
  return r.design;
}

export async function rehearseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'param',
      'vhost',
      'rate',
      'duration',
      'outage',
      'error-rate',
      'poison',
      'processing-ms',
      'concurrency',
      'body-bytes',
      'profile',
      'scenario',
      'seed',
      'verify-on',
      'management-url',
    ],
    switches: ['json'],
  });
  const subject = a.positionals[0];
  if (!subject || a.positionals.length > 1) throw new CliError(`usage: ${REHEARSE_USAGE}`, 2);
  const design = await designOf(subject, a, io);
  const { load, outageSpecs, scenario } = await loadFromArgs(a, io);
  const issues = checkLoad(design, load);
  if (issues.length > 0)
    throw new CliError(issues.map((i) => describeIssue(i, load, outageSpecs, scenario)).join('\n'), 2);
  refuseOverBudget(rehearseSize(design, load));
  const verifyOn = value(a, 'verify-on');
  let report: RehearsalReport;
  if (verifyOn !== undefined) {
    // the broker layer is loaded only when a broker is asked for
    const { brokerTarget, verifyOnBroker, VerifyTargetError } = await import('../../rehearse/verifyOnBroker.js');
    let target;
    try {
      target = await brokerTarget(verifyOn, value(a, 'management-url'));
    } catch (e) {
      // an unreachable or refusing broker: nothing was declared
      if (e instanceof VerifyTargetError) throw new CliError(e.message, 2, { usageHint: false });
      throw e;
    }
    // the prediction follows the broker's rules unless --profile (or the scenario) says otherwise
    const onBroker = load.profile !== undefined ? load : { ...load, profile: target.profile };
    if (load.profile === undefined)
      io.err(`rehearsed with RabbitMQ ${target.profile} rules, the broker's (RabbitMQ ${target.version})\n`);
    const predicted = rehearse(design, onBroker);
    report = {
      ...predicted,
      broker: await verifyOnBroker(design, onBroker, { target, predicted, log: (s) => io.err(s) }),
    };
  } else report = rehearse(design, load);
  if (flag(a, 'json')) io.out(compactJson(report) + '\n');
  else io.out(formatRehearsal(subject, report));
  return 0;
}

/** indented JSON with number arrays (the depth series) on one line each */
export function compactJson(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(
    /\[\s+(-?[0-9.e+-]+(?:,\s+-?[0-9.e+-]+)*)\s+\]/g,
    (_m, inner: string) => `[${inner.replace(/,\s+/g, ', ')}]`,
  );
}
