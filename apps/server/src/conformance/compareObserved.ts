/**
 * Compares an observed trace with a scenario's `expect` (pure; to move into the core's
 * scenario/compare.ts). Objects compare without regard to key order, arrays in order;
 * deliveries queue by queue (the order between queues is not part of the trace);
 * a missing `publish_nacked`/`returned` equals an empty list, and a missing `final` queue an empty one.
 */
import type { Observed } from '@retry-studio/topology-core';

export interface DiffEntry {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

function diffValue(path: string, expected: unknown, actual: unknown, out: DiffEntry[]): void {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) diffValue(`${path}[${i}]`, expected[i], actual[i], out);
    return;
  }
  if (
    typeof expected === 'object' && expected !== null && !Array.isArray(expected) &&
    typeof actual === 'object' && actual !== null && !Array.isArray(actual)
  ) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of [...keys].sort()) {
      diffValue(`${path}.${k}`, (expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], out);
    }
    return;
  }
  if (expected !== actual) out.push({ path, expected, actual });
}

function nonEmptyQueues<T>(m: { readonly [q: string]: readonly T[] } | undefined): Record<string, readonly T[]> {
  const out: Record<string, readonly T[]> = {};
  for (const [q, list] of Object.entries(m ?? {})) if (list.length > 0) out[q] = list;
  return out;
}

/** Every difference, or [] when the observation matches. */
export function compareObserved(expected: Observed, actual: Observed): DiffEntry[] {
  const out: DiffEntry[] = [];
  diffValue('deliveries', nonEmptyQueues(expected.deliveries), nonEmptyQueues(actual.deliveries), out);
  diffValue('final', nonEmptyQueues(expected.final), nonEmptyQueues(actual.final), out);
  diffValue('publish_nacked', expected.publish_nacked ?? [], actual.publish_nacked ?? [], out);
  diffValue('returned', expected.returned ?? [], actual.returned ?? [], out);
  return out;
}
