/**
 * The keys seen lately, in bounded memory: two generations of at most `perGeneration` keys each;
 * when the newer is full, the older is let go. A key is remembered for at least `perGeneration`
 * additions after it was last added (the observation's duplicates come within its prefetch window).
 * Kept as 53-bit hashes, not strings (a copy's key names its exchanges, routing key and deaths:
 * 25,000 of them held 10 MB in a 10,000-message burst); two keys that share a hash (about one
 * pair in 10^11 at this size) read as one.
 */
export class RecentKeys {
  private newer = new Set<number>();
  private older = new Set<number>();

  constructor(private readonly perGeneration = 25_000) {}

  has(key: string): boolean {
    const h = hash53(key);
    return this.newer.has(h) || this.older.has(h);
  }

  add(key: string): void {
    if (this.newer.size >= this.perGeneration) {
      this.older = this.newer;
      this.newer = new Set();
    }
    this.newer.add(hash53(key));
  }

  clear(): void {
    this.newer.clear();
    this.older.clear();
  }
}

/** a 53-bit string hash (cyrb53: two 32-bit multiply-xorshift lanes) */
export function hash53(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
