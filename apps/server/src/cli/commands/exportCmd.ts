import { value, parseArgs } from './args.js';
import { CliError, loadFile, type CliIo } from './context.js';
import { EXPORT_VALUE_OPTIONS, exportFormat, exportOptions, portableIfAsked, writeExport } from './exportArgs.js';

export const EXPORT_USAGE = 'export FILE --format design|definitions|rabbitmqadmin|rabbitmqadmin-v1|amqplib|rascal|consumers|operator|terraform|asyncapi [--portable] [--vhost V] [--cluster NAME] [--out FILE]';

export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: [...EXPORT_VALUE_OPTIONS, 'source-vhost'], switches: ['portable'] });
  const file = a.positionals[0];
  const format = value(a, 'format');
  if (!file || a.positionals.length > 1 || !format) throw new CliError(`usage: ${EXPORT_USAGE}`, 2);
  const f = exportFormat(format);
  exportOptions(a); // option errors before reading the file
  const doc = await loadFile(io, file, { vhost: value(a, 'source-vhost') });
  await writeExport(io, a, portableIfAsked(a, doc.design, file, io), f);
  return 0;
}
