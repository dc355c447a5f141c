/** Template parameter checking: defaults, types and limits, errors naming the parameter. */
import type { ValidationIssue } from '../model/validateResult.js';
import { checkEntityName } from '../model/names.js';
import { isForbiddenKey } from '../model/names.js';
import type { ParamSpec, ParamValue, ParamValues } from './types.js';

export type ResolvedParams =
  | { readonly ok: true; readonly values: ParamValues }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** Parses a CLI string (`k=v`) into the parameter's type. */
export function coerceParam(spec: ParamSpec, raw: string): ParamValue {
  switch (spec.type) {
    case 'integer':
      return /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : (raw as ParamValue);
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'integer-list':
      return raw.split(',').map((s) => (/^-?[0-9]+$/.test(s.trim()) ? Number(s) : NaN));
    default:
      return raw;
  }
}

export function resolveParams(
  specs: readonly ParamSpec[],
  input: { readonly [k: string]: unknown } = {},
): ResolvedParams {
  const errors: ValidationIssue[] = [];
  const values: Record<string, ParamValue> = {};
  for (const k of Object.keys(input)) {
    if (isForbiddenKey(k) || !specs.some((s) => s.name === k))
      errors.push({
        path: `params.${k}`,
        code: 'param-unknown',
        message: `unknown parameter "${k}"; known: ${specs.map((s) => s.name).join(', ')}`,
      });
  }
  for (const s of specs) {
    const path = `params.${s.name}`;
    const v = Object.prototype.hasOwnProperty.call(input, s.name) ? input[s.name] : s.default;
    const bad = (message: string): void => {
      errors.push({ path, code: 'param-invalid', message: `${s.label} (${s.name}) ${message}` });
    };
    switch (s.type) {
      case 'integer':
        if (typeof v !== 'number' || !Number.isInteger(v)) bad(`must be an integer, got ${JSON.stringify(v)}`);
        else if ((s.min !== undefined && v < s.min) || (s.max !== undefined && v > s.max))
          bad(`must be between ${s.min ?? '-inf'} and ${s.max ?? 'inf'}, got ${v}`);
        else values[s.name] = v;
        break;
      case 'boolean':
        if (typeof v !== 'boolean') bad('must be true or false');
        else values[s.name] = v;
        break;
      case 'enum':
        if (typeof v !== 'string' || !(s.options ?? []).includes(v))
          bad(`must be one of ${(s.options ?? []).join(', ')}, got ${JSON.stringify(v)}`);
        else values[s.name] = v;
        break;
      case 'string':
        if (typeof v !== 'string') bad('must be a string');
        else {
          const p = checkEntityName(v, 'queue');
          if (p) bad(`is used in names: ${p.message}`);
          else if (v.length > (s.max ?? 100)) bad(`must be at most ${s.max ?? 100} characters`);
          else values[s.name] = v;
        }
        break;
      case 'integer-list':
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isInteger(x)))
          bad('must be a list of integers, e.g. 1000,5000,30000');
        else if (
          (s.minItems !== undefined && v.length < s.minItems) ||
          (s.maxItems !== undefined && v.length > s.maxItems)
        )
          bad(`must have ${s.minItems ?? 0} to ${s.maxItems ?? 'any'} items, got ${v.length}`);
        else if (v.some((x: number) => (s.min !== undefined && x < s.min) || (s.max !== undefined && x > s.max)))
          bad(`items must be between ${s.min} and ${s.max}`);
        else values[s.name] = v as readonly number[];
        break;
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}
