/**
 * Grouping names by prefix, so a broker with thousands of queues reads as a few dozen groups
 * (`orders.retry.1`, `orders.dlq` -> `orders`). The first segment before `.`, `-`, `_` or `:`.
 */
const SEPARATOR = /[.\-_:]/;

export function namePrefix(name: string): string {
  const i = name.search(SEPARATOR);
  return i <= 0 ? name : name.slice(0, i);
}

/** name -> its group, by prefix; a group of one keeps the name itself. */
export function groupNamesByPrefix(names: Iterable<string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const p = namePrefix(n);
    const g = groups.get(p);
    if (g) g.push(n);
    else groups.set(p, [n]);
  }
  return groups;
}
