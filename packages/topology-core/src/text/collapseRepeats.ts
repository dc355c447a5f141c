/** Runs of equal neighbours, in order: ['0 ms', '0 ms', '1 s'] → [{ value: '0 ms', count: 2 }, { value: '1 s', count: 1 }]. */
export function collapseRepeats<T>(items: readonly T[]): Array<{ value: T; count: number }> {
  const out: Array<{ value: T; count: number }> = [];
  for (const value of items) {
    const last = out[out.length - 1];
    if (last && Object.is(last.value, value)) last.count++;
    else out.push({ value, count: 1 });
  }
  return out;
}

/** A list with repeated neighbours folded: "0 ms × 20, 1 s" instead of "0 ms" printed 20 times. */
export function joinCollapsed(items: readonly string[], separator = ', '): string {
  return collapseRepeats(items)
    .map((r) => (r.count > 1 ? `${r.value} × ${r.count}` : r.value))
    .join(separator);
}
