import { buildTemplate, coerceParam, compilePortable, formatIssues, getTemplate, templateToScenario } from '@retry-studio/topology-core';
import { flag, parseArgs, value } from './args.js';
import { CliError, indent, writeText, type CliIo } from './context.js';

export const SCENARIO_USAGE = 'scenario ID [--param k=v ...] [--portable] [--name NAME] [--out FILE]   a retry-scenario/1 file to replay with pnpm conformance';

export async function scenarioCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['param', 'name', 'out'], switches: ['portable'] });
  const id = a.positionals[0];
  if (!id || a.positionals.length > 1) throw new CliError(`usage: ${SCENARIO_USAGE}`, 2);
  const t = getTemplate(id);
  if (!t) throw new CliError(`unknown template "${id}" (see: pnpm cli templates)`);
  const params: Record<string, unknown> = {};
  for (const kv of a.flags.get('param') ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new CliError(`--param must be key=value, got ${JSON.stringify(kv)}`, 2);
    const spec = t.params.find((p) => p.name === kv.slice(0, eq));
    params[kv.slice(0, eq)] = spec ? coerceParam(spec, kv.slice(eq + 1)) : kv.slice(eq + 1);
  }
  const r = buildTemplate(id, params);
  if (!r.ok) throw new CliError(`${id}: invalid parameters\n${indent(formatIssues(r.errors))}`);
  let built = r.template;
  if (flag(a, 'portable')) {
    const p = compilePortable(built.design);
    if (!p.ok) throw new CliError(`cannot compile ${id} without the delayed-message plugin\n${indent(formatIssues(p.errors))}`);
    built = { ...built, design: p.design, requires: [] };
  }
  const s = templateToScenario(built, value(a, 'name') ?? `template-${id}`);
  if (!s.ok) throw new CliError(`${id} cannot be written as a retry-scenario/1 file: ${s.reason}`);
  const text = JSON.stringify(s.scenario, null, 2) + '\n';
  const out = value(a, 'out');
  if (out) {
    await writeText(io, out, text);
    io.err(`wrote ${out}\n`);
  } else io.out(text);
  return 0;
}
