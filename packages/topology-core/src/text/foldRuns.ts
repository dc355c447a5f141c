/**
 * Repetition folded so that output stays bounded: a looping message's path of 34,562 queues is
 * "(work -> work.wait) × 17,281", its 17,280 delays "5 s × 17,280". A run is a block of up to
 * `maxPeriod` items repeated back to back at least `minRepeats` times; the longest coverage wins.
 */
import { formatCount } from './formatCount.js';

export interface Run<T> {
  readonly items: readonly T[];
  readonly count: number;
}

export function foldRuns<T>(items: readonly T[], opts: { maxPeriod?: number; minRepeats?: number } = {}): Run<T>[] {
  const maxPeriod = opts.maxPeriod ?? 8;
  const minRepeats = opts.minRepeats ?? 3;
  const out: Run<T>[] = [];
  let single: T[] = [];
  let i = 0;
  while (i < items.length) {
    let best = { period: 0, count: 1 };
    for (let p = 1; p <= maxPeriod && i + p * minRepeats <= items.length; p++) {
      let count = 1;
      while (i + (count + 1) * p <= items.length && sameBlock(items, i, i + count * p, p)) count++;
      if (count >= minRepeats && count * p > best.count * best.period) best = { period: p, count };
    }
    if (best.period === 0) {
      single.push(items[i]!);
      i++;
      continue;
    }
    if (single.length > 0) out.push({ items: single, count: 1 });
    single = [];
    out.push({ items: items.slice(i, i + best.period), count: best.count });
    i += best.period * best.count;
  }
  if (single.length > 0) out.push({ items: single, count: 1 });
  return out;
}

function sameBlock<T>(items: readonly T[], a: number, b: number, p: number): boolean {
  for (let k = 0; k < p; k++) if (!Object.is(items[a + k], items[b + k])) return false;
  return true;
}

const count = formatCount;

/** "a -> (b -> c) × 1,000 -> d": `sep` between items, a repeated block in brackets when it has several items. */
export function formatRuns(
  items: readonly string[],
  sep: string,
  opts: { maxPeriod?: number; minRepeats?: number } = {},
): string {
  return foldRuns(items, opts)
    .map((r) =>
      r.count === 1
        ? r.items.join(sep)
        : `${r.items.length > 1 ? `(${r.items.join(sep)})` : r.items[0]!} × ${count(r.count)}`,
    )
    .join(sep);
}
