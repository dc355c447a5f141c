/** A multiset of strings: identical messages are kept by count. */
export class CountedSet {
  private readonly counts = new Map<string, number>();
  private total = 0;

  get size(): number {
    return this.total;
  }

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total += 1;
  }

  /** removes one `key`; false when there is none */
  take(key: string): boolean {
    const n = this.counts.get(key);
    if (!n) return false;
    if (n === 1) this.counts.delete(key);
    else this.counts.set(key, n - 1);
    this.total -= 1;
    return true;
  }

  clear(): void {
    this.counts.clear();
    this.total = 0;
  }
}
