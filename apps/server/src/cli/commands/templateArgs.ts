/** `ID [--param k=v ...]`: the arguments of the commands that build a template (generate, scenario). */
import { formatIssues } from '@retry-studio/topology-core/model';
import { buildTemplate, coerceParam, getTemplate, type BuiltTemplate } from '@retry-studio/topology-core/templates';
import type { ParsedArgs } from './args.js';
import { CliError, indent } from './context.js';

/** The `--param k=v` values, each coerced to the type of the template's parameter of that name (unknown names are left to buildTemplate to report). */
export function templateParams(id: string, a: ParsedArgs): Record<string, unknown> {
  const t = getTemplate(id);
  if (!t) throw new CliError(`unknown template "${id}" (see: pnpm cli templates)`, 2);
  const params: Record<string, unknown> = {};
  for (const kv of a.flags.get('param') ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new CliError(`--param must be key=value, got ${JSON.stringify(kv)}`, 2);
    const k = kv.slice(0, eq);
    const spec = t.params.find((p) => p.name === k);
    params[k] = spec ? coerceParam(spec, kv.slice(eq + 1)) : kv.slice(eq + 1);
  }
  return params;
}

export function buildTemplateOrFail(id: string, params: Record<string, unknown>): BuiltTemplate {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new CliError(`${id}: invalid parameters\n${indent(formatIssues(r.errors))}`, 2);
  return r.template;
}
