import { flag, parseArgs, value } from './args.js';
import { CliError, type CliIo } from './context.js';
import { exportFormat, portableIfAsked, writeExport } from './exportArgs.js';
import { buildTemplateOrFail, templateParams } from './templateArgs.js';

export const GENERATE_USAGE =
  'generate ID [--param k=v ...] [--format design|definitions|rabbitmqadmin|amqplib|rascal|consumers] [--portable] [--vhost V] [--out FILE]';

export async function generateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['param', 'format', 'vhost', 'out'], switches: ['portable', 'explain'] });
  const id = a.positionals[0];
  if (!id) throw new CliError(`usage: ${GENERATE_USAGE}`, 2);
  if (a.positionals.length > 1) throw new CliError(`unexpected argument ${JSON.stringify(a.positionals[1])}`, 2);
  const params = templateParams(id, a);
  const format = exportFormat(value(a, 'format') ?? 'design');
  const built = buildTemplateOrFail(id, params);
  const design = portableIfAsked(a, built.design, id, io);
  if (flag(a, 'explain')) io.err(`${built.explanation}\n`);
  await writeExport(io, a, design, format);
  return 0;
}
