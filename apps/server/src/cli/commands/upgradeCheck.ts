/**
 * `upgrade-check`: what changes for a retry topology from one broker line to another (the core's
 * upgradeCheck and migrateDesignForUpgrade), on a file or a live vhost; `--verify-on` declares the original
 * and the migration on the target broker and sets what it refused next to the prediction.
 * Every bad input is caught before anything is declared.
 */
import { writeDesignJson, type SkippedBinding } from '@retry-studio/topology-core/io';
import {
  BROKER_PROFILE_IDS,
  formatIssues,
  type BrokerProfileId,
  type Design,
  type OmittedField,
} from '@retry-studio/topology-core/model';
import {
  fateText,
  failureText,
  isBlocking,
  migrateDesignForUpgrade,
  upgradeCheck,
  withAssumedTraffic,
  type BehaviourFinding,
  type UpgradeFinding,
  type UpgradeSource,
} from '@retry-studio/topology-core/upgrade';
import {
  assumedConsumers,
  assumedRoleList,
  describeAssumedRoles,
  groupFindings,
  objectList,
} from '@retry-studio/topology-core/lint';
import { resolveBrokerUrl } from '../../broker/index.js';
import { importBroker } from '../../operate/importBroker.js';
import { verifyTarget, type VerifyRun, type VerifyTarget } from '../../upgrade/verifyUpgrade.js';
import { verifyDisagrees, verifyOnBroker, type VerifyOnBroker } from '../../upgrade/verifyOnBroker.js';
import { traceDifference, type LiveTraceResult } from '../../upgrade/liveTrace.js';
import { type ImportOutcome } from '../../upgrade/verifyImport.js';
import { flag, intValue, parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, writeText, type CliIo } from './context.js';
import { answered, EXIT, worstOf, wrongQuestion } from '../exitCodes.js';
import { designWorkSize } from '@retry-studio/topology-core/sizing';
import { refuseOverBudget } from './workBudget.js';
import { cliFailure, targetFromArgs } from './operateArgs.js';

export const UPGRADE_CHECK_USAGE =
  'upgrade-check FILE|--url AMQP_URL [--vhost V] --from 3.10|4.x|4.3 --to 3.10|4.x|4.3 [--json] [--migrated-out FILE] [--fail-first K] [--verify-on AMQP_URL [--verify-management-url URL] [--trace]]   exit 1 when the target refuses a declaration or a fate changes';

const PROFILES: readonly BrokerProfileId[] = BROKER_PROFILE_IDS;

function profileArg(v: string | undefined, opt: string): BrokerProfileId | undefined {
  if (v === undefined) return undefined;
  if (!PROFILES.includes(v as BrokerProfileId))
    throw wrongQuestion(`--${opt}: unknown profile "${v}" (one of ${PROFILES.join(', ')})`);
  return v as BrokerProfileId;
}

interface UpgradeInput {
  readonly design: Design;
  readonly label: string;
  /** the vhost, when the file holds several (each is checked on its own) */
  readonly vhost?: string;
  readonly from?: BrokerProfileId;
  readonly skippedBindings?: readonly SkippedBinding[];
  readonly omittedFields?: readonly OmittedField[];
}

/** The file's vhosts (each checked on its own, and said so), or the live vhost of --url. */
async function loadInputs(a: ReturnType<typeof parseArgs>, io: CliIo): Promise<UpgradeInput[]> {
  const file = a.positionals[0];
  if (file !== undefined && value(a, 'url') !== undefined) throw wrongQuestion('give FILE or --url, not both');
  if (file === undefined && value(a, 'url') === undefined) throw wrongQuestion(`usage: ${UPGRADE_CHECK_USAGE}`);
  if (file !== undefined) {
    const docs = await loadFileVhosts(io, file, { vhost: value(a, 'vhost') });
    const several = docs.length > 1;
    return docs.map((doc) => ({
      design: doc.design,
      label: several ? `${file} vhost ${JSON.stringify(doc.vhost)}` : file,
      ...(several && doc.vhost !== undefined ? { vhost: doc.vhost } : {}),
      ...(doc.skippedBindings ? { skippedBindings: doc.skippedBindings } : {}),
      ...(doc.omittedFields ? { omittedFields: doc.omittedFields } : {}),
    }));
  }
  const named = (e: unknown): never => {
    const err = cliFailure(e);
    throw err instanceof CliError && !err.message.startsWith('--')
      ? new CliError(`--url: ${err.message}`, err.exitCode)
      : err;
  };
  const t = await targetFromArgs(a).catch(named);
  const r = await importBroker(t).catch(named);
  if (!r.ok)
    throw new CliError(
      `--url: vhost '${t.vhost}' cannot be read as a design:\n${formatIssues(r.errors).replace(/^/gm, '  ')}`,
    );
  return [
    {
      design: r.design,
      label: `vhost '${r.vhost}' on RabbitMQ ${r.rabbitVersion}`,
      from: r.v43 ? '4.3' : (r.design.profile ?? '3.10'),
    },
  ];
}

const sourceText = (s: UpgradeSource): string =>
  s.kind === 'release-notes'
    ? s.url
    : s.kind === 'scenario'
      ? `scenario ${s.name} (${s.path})`
      : `measured: ${s.where}`;

function formatFinding(f: UpgradeFinding): string {
  const head = `${f.kind.toUpperCase().padEnd(16)} ${f.id}: ${f.message}\n`;
  const said = f.kind === 'refused' ? `    broker says: ${f.brokerWording.replace(/\n+/g, ' ')}\n` : '';
  return `${head}${said}    fix: ${f.fix}\n    source: ${f.sources.map(sourceText).join('; ')}\n`;
}

/** Many findings of one rule and kind read as one (a count, the first, the objects), as lint's text does (lint/findingGroups.ts). */
function formatGroup(list: readonly UpgradeFinding[], objects: readonly string[]): string {
  const f = list[0]!;
  const said = f.kind === 'refused' ? `    broker says: ${f.brokerWording.replace(/\n+/g, ' ')}\n` : '';
  return (
    `${f.kind.toUpperCase().padEnd(16)} ${f.id}: ${list.length} findings (--json lists every one); the first: ${f.message}\n` +
    `${said}    objects (${objects.length}): ${objectList(objects)}\n    fix: ${f.fix}\n    source: ${f.sources.map(sourceText).join('; ')}\n`
  );
}

export function formatFindings(findings: readonly UpgradeFinding[]): string {
  return groupFindings(findings.map((f) => ({ ...f, severity: f.kind })))
    .map((g) => (g.kind === 'single' ? formatFinding(g.finding) : formatGroup(g.findings, g.objects)))
    .join('');
}

const waits = (d: readonly number[]): string =>
  d.some((x) => x > 0) ? ` after waits of ${d.slice(0, 5).join(', ')}${d.length > 5 ? ', ...' : ''} ms` : '';

function formatImport(r: ImportOutcome): string {
  const mark = r.agrees ? 'ok ' : 'MISMATCH';
  const what = r.accepted ? 'accepted' : `refused: ${r.brokerSaid}`;
  const left = `created before it answered: ${r.created.exchanges.length} exchange(s)${r.created.exchanges.length ? ` (${r.created.exchanges.join(', ')})` : ''}, ${r.created.queues.length} queue(s)`;
  return `original as one definitions import in vhost ${r.vhost} (${r.cleanedUp ? 'deleted afterwards' : 'NOT deleted'}):\n  ${mark.padEnd(8)} ${what} (predicted: ${r.predictedRefused ? 'refused' : 'accepted'}); ${left}\n`;
}

function formatRun(title: string, r: VerifyRun): string {
  const lines = r.outcomes.map((o) => {
    const mark = o.agrees ? 'ok ' : 'MISMATCH';
    const what = o.accepted ? 'accepted' : `refused: ${o.brokerSaid}`;
    return `  ${mark.padEnd(8)} ${o.object}: ${what}${o.predicted ? ' (predicted: refused)' : o.object.startsWith('binding ') ? '' : ' (predicted: accepted)'}`;
  });
  const deprecated =
    r.deprecatedUsed === undefined
      ? ''
      : `  deprecated features in use on the broker: ${r.deprecatedUsed.join(', ') || 'none'}\n`;
  return `${title} in vhost ${r.vhost} (${r.cleanedUp ? 'deleted afterwards' : 'NOT deleted: delete it by hand'}):\n${lines.join('\n')}\n${deprecated}`;
}

export async function upgradeCheckCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'vhost',
      'from',
      'to',
      'url',
      'management-url',
      'verify-on',
      'verify-management-url',
      'migrated-out',
      'fail-first',
    ],
    switches: ['json', 'trace'],
  });
  if (a.positionals.length > 1) throw wrongQuestion(`usage: ${UPGRADE_CHECK_USAGE}`);
  const to = profileArg(value(a, 'to'), 'to');
  if (!to) throw wrongQuestion('--to: which broker line to check against (3.10, 4.x or 4.3)');
  const fromArg = profileArg(value(a, 'from'), 'from');
  if (!fromArg && value(a, 'url') === undefined)
    throw wrongQuestion(
      '--from: which broker line the topology runs on now (3.10, 4.x or 4.3; with --url it is read from the broker)',
    );
  if (fromArg && fromArg === to) throw wrongQuestion(`--from and --to are both ${to}: nothing changes`);
  intValue(a, 'fail-first', 1, 50); // a bad value is named before anything is read
  if (flag(a, 'trace') && value(a, 'verify-on') === undefined)
    throw wrongQuestion('--trace: traces run on the --verify-on broker; give --verify-on AMQP_URL');
  // the target broker is checked before anything is read or declared
  let target: VerifyTarget | undefined;
  const verifyOn = value(a, 'verify-on');
  if (verifyOn !== undefined) {
    let url;
    try {
      url = resolveBrokerUrl(verifyOn);
    } catch (e) {
      throw wrongQuestion(`--verify-on: ${(e as Error).message}`);
    }
    target = await verifyTarget(url, value(a, 'verify-management-url')).catch((e: unknown) => {
      throw wrongQuestion(`--verify-on: ${(e as Error).message}`);
    });
    if (target.profile !== to)
      throw wrongQuestion(
        `--verify-on: that broker is RabbitMQ ${target.version} (profile ${target.profile}), not --to ${to}`,
      );
  }
  const inputs = await loadInputs(a, io);
  const migratedOut = value(a, 'migrated-out');
  if (migratedOut && inputs.length > 1)
    throw wrongQuestion(
      `--migrated-out writes one design and ${a.positionals[0]} holds ${inputs.length} vhosts (${inputs.map((i) => JSON.stringify(i.vhost)).join(', ')}): pick one with --vhost`,
    );
  for (const input of inputs) {
    if (fromArg && input.from && fromArg !== input.from)
      throw wrongQuestion(`--from ${fromArg}: the broker says ${input.from} (leave --from out with --url)`);
    if ((input.from ?? fromArg!) === to) throw wrongQuestion(`--from and --to are both ${to}: nothing changes`);
  }
  if (inputs.length > 1 && !flag(a, 'json'))
    io.err(`${a.positionals[0]} holds ${inputs.length} vhosts: each is checked on its own (--vhost V checks one)\n`);
  const checks: Checked[] = [];
  for (const input of inputs) checks.push(await checkOne(input, input.from ?? fromArg!, to, a, io, target));
  const exit = worstOf(checks.map((c) => c.exit));
  if (flag(a, 'json')) {
    const json = (c: Checked) => c.json;
    io.out(
      JSON.stringify(
        inputs.length === 1
          ? json(checks[0]!)
          : { input: a.positionals[0], from: fromArg, to, blocking: exit !== EXIT.answered, vhosts: checks.map(json) },
        null,
        2,
      ) + '\n',
    );
    return exit;
  }
  for (const [i, c] of checks.entries()) {
    if (inputs.length > 1) io.out(`${i > 0 ? '\n' : ''}== vhost ${JSON.stringify(inputs[i]!.vhost)}\n`);
    io.out(c.text);
  }
  if (inputs.length > 1)
    io.out(
      `\n${exit ? 'FAIL' : 'OK'}: ${checks.filter((c) => c.exit !== EXIT.answered).length} of ${checks.length} vhosts with a refused declaration or a changed fate\n`,
    );
  return exit;
}

interface Checked {
  readonly exit: number;
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** One design (one vhost) checked: its exit code, its JSON and its text. */
async function checkOne(
  input: UpgradeInput,
  from: BrokerProfileId,
  to: BrokerProfileId,
  a: ReturnType<typeof parseArgs>,
  io: CliIo,
  target: VerifyTarget | undefined,
): Promise<Checked> {
  const failFirst = intValue(a, 'fail-first', 1, 50);
  const opts = { from, to, ...(failFirst !== undefined ? { failFirst } : {}) };
  refuseOverBudget(designWorkSize('upgrade-check', input.design));
  const report = upgradeCheck(input.design, {
    ...opts,
    ...(input.skippedBindings ? { skippedBindings: input.skippedBindings } : {}),
    ...(input.omittedFields ? { omittedFields: input.omittedFields } : {}),
  });
  const migration = migrateDesignForUpgrade(input.design, opts);
  const migratedOut = value(a, 'migrated-out');
  if (migratedOut) {
    await writeText(io, migratedOut, writeDesignJson(migration.design));
    io.err(`wrote ${migratedOut}\n`);
  }
  const verify: VerifyOnBroker | undefined = target
    ? await verifyOnBroker(target, input.design, report, migration, opts)
    : undefined;
  const traces: LiveTraceResult[] = [];
  if (target && flag(a, 'trace')) {
    const traced = withAssumedTraffic(input.design).design;
    const seen = new Set<string>();
    for (const f of report.findings.filter((x): x is BehaviourFinding => x.kind === 'behaviour-changed')) {
      const key = `${f.publisher}|${JSON.stringify(f.failure)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const r = await traceDifference(target, traced, f);
      if (r) traces.push(r);
    }
  }
  const disagrees = (verify !== undefined && verifyDisagrees(verify)) || traces.some((t) => !t.agrees);
  const exit = answered(report.blocking || disagrees);
  const json = {
    input: input.label,
    ...(input.vhost !== undefined ? { vhost: input.vhost } : {}),
    from,
    to,
    consumersAssumed: report.consumersAssumed,
    ...(report.consumersAssumed ? { assumedConsumers: assumedRoleList(assumedConsumers(input.design.topology)) } : {}),
    blocking: report.blocking,
    findings: report.findings,
    migration: {
      changes: migration.changes,
      notKept: migration.notKept,
      fatesMatch: migration.fatesMatch,
      fates: migration.fates,
      design: migration.design,
    },
    ...(verify && target
      ? { verify: { broker: target.version, ...verify, ...(traces.length ? { traces } : {}) } }
      : {}),
  };
  return { exit, json, text: reportText(input, from, to, report, migration, exit, target, verify, traces) };
}

function reportText(
  input: UpgradeInput,
  from: BrokerProfileId,
  to: BrokerProfileId,
  report: ReturnType<typeof upgradeCheck>,
  migration: ReturnType<typeof migrateDesignForUpgrade>,
  exit: number,
  target: VerifyTarget | undefined,
  verify: VerifyOnBroker | undefined,
  traces: readonly LiveTraceResult[],
): string {
  let out = `${input.label}: RabbitMQ ${from} -> ${to}${report.consumersAssumed ? ' (no consumers in the file: simulated with the ones lint assumes)' : ''}\n`;
  if (report.consumersAssumed)
    out += describeAssumedRoles(assumedConsumers(input.design.topology))
      .map((l) => `  ${l}\n`)
      .join('');
  out += '\n';
  if (report.findings.length === 0) out += 'nothing changes\n';
  out += formatFindings(report.findings);
  out += `\nmigration for ${to}: ${migration.changes.length} change(s)\n${migration.changes.map((c) => `  - ${c}\n`).join('')}`;
  if (migration.notKept.length) out += `cannot be kept:\n${migration.notKept.map((c) => `  - ${c}\n`).join('')}`;
  out += `fates after the migration (original on ${from}, migration on ${to}): ${migration.fatesMatch ? 'all match' : 'some differ'}\n`;
  for (const f of migration.fates.filter((x) => !x.match))
    out += `  ${f.publisher}, ${failureText(f.failure)}: on ${from} ${fateText(f.before)}; migrated on ${to} ${fateText(f.after)}\n`;
  if (verify && target)
    out += `\nverified on RabbitMQ ${target.version}:\n${formatRun('original', verify.original)}${formatRun('migrated', verify.migrated)}${formatImport(verify.originalImport)}`;
  if (traces.length)
    out += `live traces on RabbitMQ ${target?.version} (the original design, one message each):\n${traces
      .map(
        (t) =>
          `  ${t.agrees ? 'ok ' : 'MISMATCH'} ${t.finding.split(':')[0]}: predicted ${t.predicted}${waits(t.predictedDelaysMs)}, the broker: ${t.observed}${waits(t.observedDelaysMs)} (vhost ${t.vhost}${t.cleanedUp ? ', deleted' : ', NOT deleted'})`,
      )
      .join('\n')}\n`;
  const refused = report.findings.filter((f) => f.kind === 'refused').length;
  const changed = report.findings.filter((f) => f.kind === 'behaviour-changed').length;
  out += `\n${exit ? 'FAIL' : 'OK'}: ${refused} declaration(s) refused, ${changed} fate(s) changed, ${report.findings.filter((f) => !isBlocking(f)).length} note(s)\n`;
  return out;
}
