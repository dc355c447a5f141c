import { statedFate } from '@retry-studio/topology-core/templates';
import { flag, parseArgs, value } from './args.js';
import { CliError, type CliIo } from './context.js';
import { EXPORT_VALUE_OPTIONS, exportFormat, exportOptions, portableIfAsked, writeExport } from './exportArgs.js';
import { buildTemplateOrFail, templateParams } from './templateArgs.js';

export const GENERATE_USAGE =
  'generate ID [--param k=v ...] [--format design|definitions|rabbitmqadmin|rabbitmqadmin-v1|amqplib|rascal|consumers|operator|terraform|asyncapi] [--portable] [--vhost V] [--cluster NAME] [--out FILE]';

export async function generateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['param', ...EXPORT_VALUE_OPTIONS], switches: ['portable', 'explain'] });
  const id = a.positionals[0];
  if (!id) throw new CliError(`usage: ${GENERATE_USAGE}`, 2);
  if (a.positionals.length > 1) throw new CliError(`unexpected argument ${JSON.stringify(a.positionals[1])}`, 2);
  const params = templateParams(id, a);
  const format = exportFormat(value(a, 'format') ?? 'design');
  exportOptions(a); // option errors before building
  const built = buildTemplateOrFail(id, params);
  const design = portableIfAsked(a, built.design, id, io);
  if (flag(a, 'explain')) io.err(`${built.explanation}\n${statedFate(built.design)?.sentence ?? ''}\n`);
  await writeExport(io, a, design, format);
  return 0;
}
