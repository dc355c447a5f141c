import { objectLocator } from '@retry-studio/topology-core/io';
import { assumedConsumers, assumedRoleList, lintDesign, lintGithub, lintSarif } from '@retry-studio/topology-core/lint';
import { flag, parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, readText, type CliIo } from './context.js';
import { formatLintText, type LintSection } from './lintText.js';
import { designWorkSize } from '@retry-studio/topology-core/sizing';
import { refuseOverBudget } from './workBudget.js';
import { toolVersion } from '../version.js';

export const LINT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

export const LINT_USAGE =
  "lint FILE [--format text|json|sarif|github] [--json] [--profile 3.10|4.x|4.3] [--plugins none|P1,P2] [--previous FILE] [--vhost V] [--nodes N]   exit 1 when a rule reports an error (sarif: SARIF 2.1.0 for code scanning; github: workflow annotations; --plugins: the target broker's enabled plugins, so a plugin exchange type it lacks is an error)";

/** `--format F`, or `--json` (the same as `--format json`). */
function lintFormat(a: ReturnType<typeof parseArgs>): LintFormat {
  const f = value(a, 'format');
  if (f !== undefined && !(LINT_FORMATS as readonly string[]).includes(f))
    throw new CliError(`--format must be one of ${LINT_FORMATS.join(', ')}, got ${JSON.stringify(f)}`, 2);
  if (flag(a, 'json') && f !== undefined && f !== 'json')
    throw new CliError(`--json and --format ${f} ask for two formats: give one`, 2);
  return flag(a, 'json') ? 'json' : ((f as LintFormat | undefined) ?? 'text');
}

export async function lintCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: ['profile', 'previous', 'vhost', 'nodes', 'format', 'plugins'],
    switches: ['json'],
  });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${LINT_USAGE}`, 2);
  const format = lintFormat(a);
  const profile = value(a, 'profile');
  if (profile !== undefined && profile !== '3.10' && profile !== '4.x' && profile !== '4.3')
    throw new CliError('--profile must be 3.10, 4.x or 4.3', 2);
  // the target cluster's size: more than 1 turns on the cluster rules (classic-queue-in-cluster)
  const nodesArg = value(a, 'nodes');
  const nodes = nodesArg === undefined ? undefined : Number(nodesArg);
  if (nodes !== undefined && !(Number.isInteger(nodes) && nodes >= 1))
    throw new CliError(`--nodes must be a whole number of nodes >= 1, got '${nodesArg}'`, 2);
  // the target's enabled plugins (rabbitmq-plugins list -e): a plugin exchange type it lacks is an error
  const pluginsArg = value(a, 'plugins');
  const plugins =
    pluginsArg === undefined ? undefined : pluginsArg === 'none' ? [] : pluginsArg.split(',').map((p) => p.trim());
  if (plugins?.some((p) => !/^[a-z0-9_]+$/.test(p)))
    throw new CliError(
      `--plugins must be "none" or plugin names separated by commas, got ${JSON.stringify(pluginsArg)}`,
      2,
    );
  // a whole-broker file is linted per vhost, each finding naming its vhost
  const docs = await loadFileVhosts(io, file, { vhost: value(a, 'vhost') });
  for (const doc of docs) refuseOverBudget(designWorkSize('lint', doc.design));
  const prevFile = value(a, 'previous');
  // the deployed topology of the same vhost (a whole-broker --previous file is read per vhost too)
  const previousDocs = prevFile ? await loadFileVhosts(io, prevFile) : [];
  const previousOf = (vhost: string | undefined) =>
    previousDocs.length === 1
      ? previousDocs[0]!.design.topology
      : previousDocs.find((p) => p.vhost === vhost)?.design.topology;
  const sections: (LintSection & { assumedRoles?: ReturnType<typeof assumedRoleList> })[] = docs.map((doc) => {
    const previous = previousOf(doc.vhost);
    // the consumers assumed for a definitions file are listed by --json only (the text says the assumption in one line)
    const assumed =
      format === 'json' && doc.design.consumers.length === 0 ? assumedConsumers(doc.design.topology) : undefined;
    return {
      ...(assumed ? { assumedRoles: assumedRoleList(assumed) } : {}),
      ...(doc.vhost !== undefined ? { vhost: doc.vhost } : {}),
      findings: lintDesign(doc.design, {
        ...(profile ? { profile } : {}),
        ...(previous ? { previous } : {}),
        ...(nodes !== undefined ? { nodes } : {}),
        ...(doc.omittedFields ? { omittedFields: doc.omittedFields } : {}),
        ...(doc.pluginPolicyKeys ? { pluginPolicyKeys: doc.pluginPolicyKeys } : {}),
        ...(plugins ? { plugins } : {}),
      }),
      warnings: doc.warnings,
    };
  });
  const findings = sections.flatMap((s) =>
    s.findings.map((f) => (s.vhost !== undefined ? { ...f, vhost: s.vhost } : f)),
  );
  const errors = findings.filter((f) => f.severity === 'error').length;
  const kind = docs[0]!.kind;
  if (format === 'sarif' || format === 'github') {
    // each finding is located in the objects of its own vhost
    const text = await readText(io, file);
    const locators = new Map<string, ReturnType<typeof objectLocator>>();
    const locate = (id: string, vhost?: string) => {
      const v = vhost ?? docs[0]!.vhost;
      const key = v ?? '';
      if (!locators.has(key)) locators.set(key, objectLocator(text, v !== undefined ? { vhost: v } : {}));
      return locators.get(key)!(id);
    };
    io.out(
      format === 'sarif'
        ? JSON.stringify(lintSarif({ file, findings, toolVersion: toolVersion(), locate }), null, 2) + '\n'
        : lintGithub({ file, findings, locate }),
    );
    return errors > 0 ? 1 : 0;
  }
  if (format === 'json') {
    const validationWarnings = sections.flatMap((s) =>
      s.warnings.map((w) => (s.vhost !== undefined ? { ...w, vhost: s.vhost } : w)),
    );
    // the consumers lint assumed for a definitions file: every queue's role and why
    const assumedConsumers = sections.flatMap((s) =>
      (s.assumedRoles ?? []).map((r) => (s.vhost !== undefined ? { ...r, vhost: s.vhost } : r)),
    );
    io.out(
      JSON.stringify(
        {
          file,
          kind,
          ...(docs.length > 1
            ? { vhosts: sections.map((s) => s.vhost) }
            : docs[0]!.vhost !== undefined
              ? { vhost: docs[0]!.vhost }
              : {}),
          findings,
          validationWarnings,
          ...(assumedConsumers.length ? { assumedConsumers } : {}),
          errors,
        },
        null,
        2,
      ) + '\n',
    );
    return errors > 0 ? 1 : 0;
  }
  io.out(formatLintText(file, kind, sections));
  return errors > 0 ? 1 : 0;
}
