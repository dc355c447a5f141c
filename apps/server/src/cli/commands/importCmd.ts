import { formatIssues, writeDesignJson } from '@retry-studio/topology-core';
import { parseArgs, value } from './args.js';
import { CliError, loadFile, writeOutput, type CliIo } from './context.js';

export const IMPORT_USAGE = 'import FILE [--vhost V] [--name NAME] [--out FILE]   definitions (or design) JSON -> design JSON';

export async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['vhost', 'name', 'out'], switches: [] });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${IMPORT_USAGE}`, 2);
  const doc = await loadFile(io, file, { vhost: value(a, 'vhost') });
  const name = value(a, 'name');
  const design = name ? { ...doc.design, name } : doc.design;
  const t = design.topology;
  io.err(`${file}: ${doc.kind}; ${t.exchanges.length} exchanges, ${t.queues.length} queues, ${t.bindings.length} bindings${t.policies?.length ? `, ${t.policies.length} policies` : ''}\n`);
  if (doc.warnings.length) io.err(`warnings:\n${formatIssues(doc.warnings).replace(/^/gm, '  ')}\n`);
  await writeOutput(io, value(a, 'out'), writeDesignJson(design));
  return 0;
}
