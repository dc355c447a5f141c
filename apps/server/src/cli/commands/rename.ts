import { exportDefinitions, renameNode, writeDesignJson } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, loadFile, writeOutput, type CliIo } from './context.js';

export const RENAME_USAGE = 'rename FILE --queue|--exchange OLD NEW [--vhost V] [--out FILE]';

/**
 * Renames a queue or an exchange and every reference to it (the core's reference walker:
 * bindings, dead-letter settings, counters, republish targets, policies, publishers, layout).
 * A design stays a design; a definitions file stays a definitions file.
 */
export async function renameCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['out', 'vhost'], switches: ['queue', 'exchange'] });
  const [file, from, to] = a.positionals;
  if (!file || from === undefined || to === undefined || a.positionals.length > 3 || flag(a, 'queue') === flag(a, 'exchange'))
    throw new CliError(`usage: ${RENAME_USAGE}`, 2);
  const target = flag(a, 'queue') ? 'queue' : 'exchange';
  const vhost = value(a, 'vhost');
  const doc = await loadFile(io, file, { vhost });
  const r = renameNode(doc.design, target, from, to);
  if (!r.ok) throw new CliError(`${file}: ${r.error.path}: ${r.error.message}`);
  const text =
    doc.kind === 'definitions'
      ? JSON.stringify(exportDefinitions(r.design.topology, vhost !== undefined ? { vhost } : {}), null, 2) + '\n'
      : writeDesignJson(r.design);
  await writeOutput(io, value(a, 'out'), text);
  return 0;
}
