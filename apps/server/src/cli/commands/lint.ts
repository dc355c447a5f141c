import { formatIssues, lintDesign, type LintFinding } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, loadFile, type CliIo } from './context.js';

export const LINT_USAGE = 'lint FILE [--json] [--profile 3.10|4.x] [--previous FILE] [--vhost V] [--nodes N]   exit 1 when a rule reports an error';

export async function lintCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['profile', 'previous', 'vhost', 'nodes'], switches: ['json'] });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${LINT_USAGE}`, 2);
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
  if (flag(a, 'json')) {
    io.out(JSON.stringify({ file, kind: doc.kind, findings, validationWarnings: doc.warnings, errors }, null, 2) + '\n');
    return errors > 0 ? 1 : 0;
  }
  if (doc.warnings.length > 0) io.out(`validation warnings:\n${formatIssues(doc.warnings).replace(/^/gm, '  ')}\n`);
  if (doc.kind === 'definitions') io.out(`${file}: RabbitMQ definitions (no consumers: each queue with a dead-letter route and no TTL is assumed to have a consumer that rejects what it fails on, as import-broker scaffolds)\n`);
  for (const f of findings) io.out(formatFinding(f));
  const warn = findings.filter((f) => f.severity === 'warning').length;
  io.out(`${findings.length === 0 ? 'no findings' : `${errors} error(s), ${warn} warning(s), ${findings.length - errors - warn} info`}\n`);
  return errors > 0 ? 1 : 0;
}

function formatFinding(f: LintFinding): string {
  return `${f.severity.padEnd(7)} ${f.id}: ${f.message}\n          objects: ${f.objects.join(', ')}\n          fix: ${f.fix}\n`;
}
