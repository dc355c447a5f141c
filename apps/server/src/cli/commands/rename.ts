import { exportDefinitions, exportDefinitionsVhosts, writeDesignJson } from '@retry-studio/topology-core/io';
import { renameNode } from '@retry-studio/topology-core/model';
import { flag, parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, writeOutput, type CliIo } from './context.js';

export const RENAME_USAGE = 'rename FILE --queue|--exchange OLD NEW [--vhost V] [--out FILE]';

/**
 * Renames a queue or an exchange and every reference to it (the core's reference walker:
 * bindings, dead-letter settings, counters, republish targets, policies, publishers, layout).
 * A design stays a design; a definitions file stays a definitions file.
 */
export async function renameCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['out', 'vhost'], switches: ['queue', 'exchange'] });
  const [file, from, to] = a.positionals;
  if (
    !file ||
    from === undefined ||
    to === undefined ||
    a.positionals.length > 3 ||
    flag(a, 'queue') === flag(a, 'exchange')
  )
    throw new CliError(`usage: ${RENAME_USAGE}`, 2);
  const target = flag(a, 'queue') ? 'queue' : 'exchange';
  const vhost = value(a, 'vhost');
  // a whole-broker file: the object is renamed in every vhost that has it
  const docs = await loadFileVhosts(io, file, { vhost });
  const renamed = docs.map((doc) => {
    const has =
      target === 'queue'
        ? doc.design.topology.queues.some((q) => q.name === from)
        : doc.design.topology.exchanges.some((x) => x.name === from);
    if (docs.length > 1 && !has) return doc;
    const r = renameNode(doc.design, target, from, to);
    if (!r.ok)
      throw new CliError(
        `${file}${docs.length > 1 ? ` vhost ${JSON.stringify(doc.vhost)}` : ''}: ${r.error.path}: ${r.error.message}`,
        2,
      );
    return { ...doc, design: r.design };
  });
  if (docs.length > 1 && renamed.every((d, i) => d === docs[i]))
    throw new CliError(
      `${file}: no ${target} "${from}" in any of its vhosts (${docs.map((d) => JSON.stringify(d.vhost)).join(', ')})`,
      2,
    );
  const doc = renamed[0]!;
  const text =
    docs.length > 1
      ? JSON.stringify(
          exportDefinitionsVhosts(renamed.map((d) => ({ vhost: d.vhost!, topology: d.design.topology }))),
          null,
          2,
        ) + '\n'
      : doc.kind === 'definitions'
        ? JSON.stringify(
            exportDefinitions(
              doc.design.topology,
              (vhost ?? doc.vhost) !== undefined && (vhost ?? doc.vhost) !== '/'
                ? { vhost: (vhost ?? doc.vhost)! }
                : vhost !== undefined
                  ? { vhost }
                  : {},
            ),
            null,
            2,
          ) + '\n'
        : writeDesignJson(doc.design);
  await writeOutput(io, value(a, 'out'), text);
  return 0;
}
