/** `--format`, `--portable`, `--vhost`, `--cluster`, `--out`: the options of the commands that write a design out (export, generate). */
import {
  compilePortable,
  exportDesign,
  isExportFormat,
  validateExportOptions,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
} from '@retry-studio/topology-core/io';
import { formatIssues, type Design } from '@retry-studio/topology-core/model';
import { flag, value, type ParsedArgs } from './args.js';
import { CliError, indent, writeOutput, type CliIo } from './context.js';

export function exportFormat(format: string): ExportFormat {
  if (!isExportFormat(format)) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`, 2);
  return format;
}

/** The design without the delayed-message plugin, or a CliError listing what cannot be compiled; `name` says what the design came from. */
export function portableOrFail(
  design: Design,
  name: string,
): { readonly design: Design; readonly changes: readonly string[] } {
  const p = compilePortable(design);
  if (!p.ok)
    throw new CliError(`cannot compile ${name} without the delayed-message plugin\n${indent(formatIssues(p.errors))}`);
  return p;
}

/** With --portable: the portable compile, its changes listed on stderr; without: the design as it is. */
export function portableIfAsked(a: ParsedArgs, design: Design, name: string, io: CliIo): Design {
  if (!flag(a, 'portable')) return design;
  const p = portableOrFail(design, name);
  io.err(`portable compile:\n${p.changes.map((c) => `  - ${c}`).join('\n')}\n`);
  return p.design;
}

/** The value options every exporting command accepts (besides its own). */
export const EXPORT_VALUE_OPTIONS = ['format', 'vhost', 'cluster', 'out'] as const;

/** --vhost and --cluster as export options; an invalid value is a usage error naming the option. */
export function exportOptions(a: ParsedArgs): ExportOptions {
  const vhost = value(a, 'vhost');
  const cluster = value(a, 'cluster');
  const opts: ExportOptions = {
    ...(vhost !== undefined ? { vhost } : {}),
    ...(cluster !== undefined ? { cluster } : {}),
  };
  const issues = validateExportOptions(opts);
  if (issues.length > 0) throw new CliError(issues.map((i) => `--${i.path}: ${i.message}`).join('\n'), 2);
  return opts;
}

/** Exports the design in `format` (with --vhost, --cluster) to --out or stdout. */
export async function writeExport(io: CliIo, a: ParsedArgs, design: Design, format: ExportFormat): Promise<void> {
  await writeOutput(io, value(a, 'out'), exportDesign(design, format, exportOptions(a)));
}
