/**
 * Observed vs expected: a match flag and a readable diff (one line per difference, with a
 * path such as `deliveries.work[1].x-death[0].count`). Tables compare as maps (key order is
 * not part of the trace); arrays in order; a queue with no deliveries or messages equals an
 * absent one, and empty publish_nacked / returned equal absent ones.
 */
import type { Observed } from './types.js';

export interface Comparison {
  readonly match: boolean;
  readonly diff: string[];
}

function show(v: unknown): string {
  return v === undefined ? 'nothing' : JSON.stringify(v);
}

function isObj(v: unknown): v is { readonly [k: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepDiff(path: string, exp: unknown, got: unknown, out: string[]): void {
  if (Array.isArray(exp) && Array.isArray(got)) {
    const n = Math.max(exp.length, got.length);
    for (let i = 0; i < n; i++) {
      if (i >= got.length) out.push(`${path}[${i}]: expected ${show(exp[i])}, got nothing (only ${got.length})`);
      else if (i >= exp.length) out.push(`${path}[${i}]: expected nothing (only ${exp.length}), got ${show(got[i])}`);
      else deepDiff(`${path}[${i}]`, exp[i], got[i], out);
    }
    return;
  }
  if (isObj(exp) && isObj(got)) {
    const keys = new Set([...Object.keys(exp), ...Object.keys(got)]);
    for (const k of [...keys].sort()) deepDiff(path === '' ? k : `${path}.${k}`, exp[k], got[k], out);
    return;
  }
  if (typeof exp === 'number' && typeof got === 'number' ? exp !== got : JSON.stringify(exp) !== JSON.stringify(got)) {
    out.push(`${path}: expected ${show(exp)}, got ${show(got)}`);
  }
}

function dropEmpty(m: { readonly [q: string]: readonly unknown[] } | undefined): { [q: string]: readonly unknown[] } {
  const out: { [q: string]: readonly unknown[] } = {};
  for (const [k, v] of Object.entries(m ?? {})) if (v.length > 0) out[k] = v;
  return out;
}

export function compareObserved(observed: Observed, expected: Observed): Comparison {
  const diff: string[] = [];
  deepDiff('deliveries', dropEmpty(expected.deliveries), dropEmpty(observed.deliveries), diff);
  deepDiff('final', dropEmpty(expected.final), dropEmpty(observed.final), diff);
  deepDiff('publish_nacked', expected.publish_nacked ?? [], observed.publish_nacked ?? [], diff);
  deepDiff('returned', expected.returned ?? [], observed.returned ?? [], diff);
  return { match: diff.length === 0, diff };
}
