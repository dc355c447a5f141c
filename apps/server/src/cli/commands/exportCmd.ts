import { compilePortable, exportDesign, formatIssues, isExportFormat, EXPORT_FORMATS } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, indent, loadFile, writeText, type CliIo } from './context.js';

export const EXPORT_USAGE = 'export FILE --format design|definitions|rabbitmqadmin|amqplib|rascal|consumers [--portable] [--vhost V] [--out FILE]';

export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['format', 'vhost', 'out', 'source-vhost'], switches: ['portable'] });
  const file = a.positionals[0];
  const format = value(a, 'format');
  if (!file || a.positionals.length > 1 || !format) throw new CliError(`usage: ${EXPORT_USAGE}`, 2);
  if (!isExportFormat(format)) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`, 2);
  const sv = value(a, 'source-vhost');
  const doc = await loadFile(io, file, sv !== undefined ? { vhost: sv } : {});
  let design = doc.design;
  if (flag(a, 'portable')) {
    const p = compilePortable(design);
    if (!p.ok) throw new CliError(`cannot compile ${file} without the delayed-message plugin\n${indent(formatIssues(p.errors))}`);
    design = p.design;
    io.err(`portable compile:\n${p.changes.map((c) => `  - ${c}`).join('\n')}\n`);
  }
  const vhost = value(a, 'vhost');
  const text = exportDesign(design, format, vhost !== undefined ? { vhost } : {});
  const out = value(a, 'out');
  if (out) {
    await writeText(io, out, text);
    io.err(`wrote ${out}\n`);
  } else io.out(text);
  return 0;
}
