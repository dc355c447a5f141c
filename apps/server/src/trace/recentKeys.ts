/**
 * The keys seen lately, in bounded memory: two generations of at most `perGeneration` keys each;
 * when the newer is full, the older is let go. A key is remembered for at least `perGeneration`
 * additions after it was last added (the observation's duplicates come within its prefetch window).
 */
export class RecentKeys {
  private newer = new Set<string>();
  private older = new Set<string>();

  constructor(private readonly perGeneration = 25_000) {}

  has(key: string): boolean {
    return this.newer.has(key) || this.older.has(key);
  }

  add(key: string): void {
    if (this.newer.size >= this.perGeneration) {
      this.older = this.newer;
      this.newer = new Set();
    }
    this.newer.add(key);
  }

  clear(): void {
    this.newer.clear();
    this.older.clear();
  }
}
