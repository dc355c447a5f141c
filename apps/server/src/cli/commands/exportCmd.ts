import { exportVhosts, IMPORT_NOTE_CODES, MULTI_VHOST_FORMATS } from '@retry-studio/topology-core/io';
import { value, parseArgs } from './args.js';
import { CliError, loadFileVhosts, writeOutput, type CliIo } from './context.js';
import { formatWarnings } from './lintText.js';
import { EXPORT_VALUE_OPTIONS, exportFormat, exportOptions, portableIfAsked, writeExport } from './exportArgs.js';

export const EXPORT_USAGE =
  'export FILE --format design|definitions|rabbitmqadmin|rabbitmqadmin-v1|amqplib|rascal|consumers|operator|terraform|asyncapi [--portable] [--source-vhost V] [--vhost V] [--cluster NAME] [--out FILE]';

/**
 * Each object keeps its vhost: a design read from vhost "kleem" is written to "kleem" unless
 * `--vhost` says another. A file with objects in several vhosts exports them all as a
 * whole-broker definitions file, one Terraform file, one operator stream or one rabbitmqadmin v1
 * script; the other formats write one vhost (`--source-vhost` picks it).
 */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: [...EXPORT_VALUE_OPTIONS, 'source-vhost'], switches: ['portable'] });
  const file = a.positionals[0];
  const format = value(a, 'format');
  if (!file || a.positionals.length > 1 || !format) throw new CliError(`usage: ${EXPORT_USAGE}`, 2);
  const f = exportFormat(format);
  exportOptions(a); // option errors before reading the file
  const docs = await loadFileVhosts(io, file, { vhost: value(a, 'source-vhost') });
  // what was skipped or is not modelled is said, never lost without a word
  for (const d of docs) {
    const notes = d.warnings.filter((w) => IMPORT_NOTE_CODES.includes(w.code));
    if (notes.length > 0)
      io.err(`${file}${d.vhost !== undefined ? ` vhost ${JSON.stringify(d.vhost)}` : ''}:\n${formatWarnings(notes)}\n`);
  }
  if (docs.length > 1) {
    const vhosts = docs.map((d) => JSON.stringify(d.vhost)).join(', ');
    if (value(a, 'vhost') !== undefined)
      throw new CliError(
        `${file} has objects in ${docs.length} vhosts (${vhosts}): --vhost would put them all in one; pick the vhost to read with --source-vhost V`,
        2,
      );
    const parts = docs.map((d) => ({
      vhost: d.vhost!,
      design: portableIfAsked(a, d.design, `${file} vhost ${d.vhost}`, io),
    }));
    const cluster = value(a, 'cluster');
    const text = exportVhosts(parts, f, cluster !== undefined ? { cluster } : {});
    if (text === undefined)
      throw new CliError(
        `${file} has objects in ${docs.length} vhosts (${vhosts}): the ${f} export writes one vhost; pick one with --source-vhost V (${MULTI_VHOST_FORMATS.join(', ')} write them all)`,
        2,
      );
    await writeOutput(io, value(a, 'out'), text);
    return 0;
  }
  await writeExport(io, a, portableIfAsked(a, docs[0]!.design, file, io), f);
  return 0;
}
