import { buildTemplate, coerceParam, compilePortable, exportDesign, formatIssues, getTemplate, isExportFormat, EXPORT_FORMATS } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, indent, writeText, type CliIo } from './context.js';

export const GENERATE_USAGE =
  'generate ID [--param k=v ...] [--format design|definitions|rabbitmqadmin|amqplib|rascal|consumers] [--portable] [--vhost V] [--out FILE]';

export async function generateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['param', 'format', 'vhost', 'out'], switches: ['portable', 'explain'] });
  const id = a.positionals[0];
  if (!id) throw new CliError(`usage: ${GENERATE_USAGE}`, 2);
  if (a.positionals.length > 1) throw new CliError(`unexpected argument ${JSON.stringify(a.positionals[1])}`, 2);
  const t = getTemplate(id);
  if (!t) throw new CliError(`unknown template "${id}" (see: pnpm cli templates)`);
  const params: Record<string, unknown> = {};
  for (const kv of a.flags.get('param') ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new CliError(`--param must be key=value, got ${JSON.stringify(kv)}`, 2);
    const k = kv.slice(0, eq);
    const spec = t.params.find((p) => p.name === k);
    params[k] = spec ? coerceParam(spec, kv.slice(eq + 1)) : kv.slice(eq + 1);
  }
  const format = value(a, 'format') ?? 'design';
  if (!isExportFormat(format)) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`, 2);
  const r = buildTemplate(id, params);
  if (!r.ok) throw new CliError(`${id}: invalid parameters\n${indent(formatIssues(r.errors))}`);
  let design = r.template.design;
  if (flag(a, 'portable')) {
    const p = compilePortable(design);
    if (!p.ok) throw new CliError(`cannot compile ${id} without the delayed-message plugin\n${indent(formatIssues(p.errors))}`);
    design = p.design;
    io.err(`portable compile:\n${p.changes.map((c) => `  - ${c}`).join('\n')}\n`);
  }
  if (flag(a, 'explain')) io.err(`${r.template.explanation}\n`);
  const vhost = value(a, 'vhost');
  const text = exportDesign(design, format, vhost !== undefined ? { vhost } : {});
  const out = value(a, 'out');
  if (out) {
    await writeText(io, out, text);
    io.err(`wrote ${out}\n`);
  } else io.out(text);
  return 0;
}
