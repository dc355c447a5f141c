import { formatIssues, lintDesign, lintGithub, lintSarif, objectLocator, type LintFinding } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, loadFile, readText, type CliIo } from './context.js';
import { toolVersion } from '../version.js';

export const LINT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

export const LINT_USAGE = 'lint FILE [--format text|json|sarif|github] [--json] [--profile 3.10|4.x|4.3] [--previous FILE] [--vhost V] [--nodes N]   exit 1 when a rule reports an error (sarif: SARIF 2.1.0 for code scanning; github: workflow annotations)';

/** `--format F`, or `--json` (the same as `--format json`). */
function lintFormat(a: ReturnType<typeof parseArgs>): LintFormat {
  const f = value(a, 'format');
  if (f !== undefined && !(LINT_FORMATS as readonly string[]).includes(f)) throw new CliError(`--format must be one of ${LINT_FORMATS.join(', ')}, got ${JSON.stringify(f)}`, 2);
  if (flag(a, 'json') && f !== undefined && f !== 'json') throw new CliError(`--json and --format ${f} ask for two formats: give one`, 2);
  return flag(a, 'json') ? 'json' : ((f as LintFormat | undefined) ?? 'text');
}

export async function lintCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['profile', 'previous', 'vhost', 'nodes', 'format'], switches: ['json'] });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${LINT_USAGE}`, 2);
  const format = lintFormat(a);
  const profile = value(a, 'profile');
  if (profile !== undefined && profile !== '3.10' && profile !== '4.x' && profile !== '4.3') throw new CliError('--profile must be 3.10, 4.x or 4.3', 2);
  // the target cluster's size: more than 1 turns on the cluster rules (classic-queue-in-cluster)
  const nodesArg = value(a, 'nodes');
  const nodes = nodesArg === undefined ? undefined : Number(nodesArg);
  if (nodes !== undefined && !(Number.isInteger(nodes) && nodes >= 1)) throw new CliError(`--nodes must be a whole number of nodes >= 1, got '${nodesArg}'`, 2);
  const doc = await loadFile(io, file, { vhost: value(a, 'vhost') });
  const prevFile = value(a, 'previous');
  const previous = prevFile ? (await loadFile(io, prevFile)).design.topology : undefined;
  const findings = lintDesign(doc.design, { ...(profile ? { profile } : {}), ...(previous ? { previous } : {}), ...(nodes !== undefined ? { nodes } : {}) });
  const errors = findings.filter((f) => f.severity === 'error').length;
  if (format === 'sarif' || format === 'github') {
    const vhost = value(a, 'vhost');
    const locate = objectLocator(await readText(io, file), vhost !== undefined ? { vhost } : {});
    io.out(format === 'sarif' ? JSON.stringify(lintSarif({ file, findings, toolVersion: toolVersion(), locate }), null, 2) + '\n' : lintGithub({ file, findings, locate }));
    return errors > 0 ? 1 : 0;
  }
  if (format === 'json') {
    io.out(JSON.stringify({ file, kind: doc.kind, findings, validationWarnings: doc.warnings, errors }, null, 2) + '\n');
    return errors > 0 ? 1 : 0;
  }
  if (doc.warnings.length > 0) io.out(`validation warnings:\n${formatIssues(doc.warnings).replace(/^/gm, '  ')}\n`);
  if (doc.kind === 'definitions') io.out(`${file}: RabbitMQ definitions (no consumers: rules about consumer behaviour are skipped)\n`);
  for (const f of findings) io.out(formatFinding(f));
  const warn = findings.filter((f) => f.severity === 'warning').length;
  io.out(`${findings.length === 0 ? 'no findings' : `${errors} error(s), ${warn} warning(s), ${findings.length - errors - warn} info`}\n`);
  return errors > 0 ? 1 : 0;
}

function formatFinding(f: LintFinding): string {
  return `${f.severity.padEnd(7)} ${f.id}: ${f.message}\n          objects: ${f.objects.join(', ')}\n          fix: ${f.fix}\n`;
}
