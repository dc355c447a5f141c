import { describe, expect, it } from 'vitest';
import { topicPatternsIntersect, topicPatternsOverlap } from './topicOverlap.js';
import { topicWordsMatch } from './topicMatcher.js';

/** a small seeded generator (the test's patterns are the same on every run) */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const TOKENS = ['a', 'b', '*', '#', ''] as const;
function pattern(r: () => number, maxLen: number): string {
  const n = Math.floor(r() * (maxLen + 1));
  return Array.from({ length: n }, () => TOKENS[Math.floor(r() * TOKENS.length)]).join('.');
}

/**
 * Every key over the words a, b, c (c: a word no pattern names) and "" up to `len` words. A key
 * both patterns match exists iff one this short does: a shortest one takes a word only where at
 * least one pattern moves past a word that is not `#`, so it has at most as many words as the
 * patterns have such words together.
 */
function keys(len: number): string[][] {
  const words = ['a', 'b', 'c', ''];
  const out: string[][] = [[]];
  let layer: string[][] = [[]];
  for (let i = 0; i < len; i++) {
    layer = layer.flatMap((k) => words.map((w) => [...k, w]));
    out.push(...layer);
  }
  return out;
}
const words = (p: string): string[] => (p === '' ? [] : p.split('.'));
const nonHash = (p: string): number => words(p).filter((w) => w !== '#').length;
const brute = (ps: readonly string[], all: readonly string[][]): boolean =>
  all.some((k) => ps.every((p) => topicWordsMatch(words(p), k)));

describe('topic patterns overlap, exactly', () => {
  it('the cases the sample key got wrong, and plain ones', () => {
    // sampling "a.#" as "a" and "#.b" as "b": neither matched the other's sample, yet "a.b" matches both
    expect(topicPatternsOverlap('a.#', '#.b')).toBe(true);
    expect(topicPatternsOverlap('*.x.#', '#.y')).toBe(true);
    expect(topicPatternsOverlap('a.*', 'b.*')).toBe(false);
    expect(topicPatternsOverlap('a.*.c', 'a.#.d')).toBe(false);
    expect(topicPatternsOverlap('*.*', '#.*.*.*')).toBe(false);
    expect(topicPatternsOverlap('#', '')).toBe(true);
    expect(topicPatternsOverlap('*', '')).toBe(false);
    expect(topicPatternsOverlap('a..b', 'a.*.b')).toBe(true);
    expect(topicPatternsIntersect(['a.#', '#.b', '*.*.*'])).toBe(true);
    expect(topicPatternsIntersect(['a.#', '#.b', '*'])).toBe(false);
  });

  it('agrees with brute force over every short key, on 1,000 generated pairs', { timeout: 60_000 }, () => {
    const r = lcg(29);
    const upTo = Array.from({ length: 9 }, (_, n) => keys(n));
    let overlapping = 0;
    for (let i = 0; i < 1000; i++) {
      const a = pattern(r, 4);
      const b = pattern(r, 4);
      // every key as long as the bound (one word longer too: the bound is not taken on trust)
      const want = brute([a, b], upTo[Math.min(8, nonHash(a) + nonHash(b) + 1)]!);
      expect(topicPatternsOverlap(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(want);
      if (want) overlapping++;
    }
    // both answers are well represented
    expect(overlapping).toBeGreaterThan(100);
    expect(overlapping).toBeLessThan(900);
  });

  it('agrees with brute force for three patterns (a key through two topic hops)', { timeout: 60_000 }, () => {
    const r = lcg(30);
    const upTo = Array.from({ length: 8 }, (_, n) => keys(n));
    for (let i = 0; i < 500; i++) {
      const ps = [pattern(r, 2), pattern(r, 2), pattern(r, 2)];
      const all = upTo[Math.min(7, ps.reduce((n, p) => n + nonHash(p), 0) + 1)]!;
      expect(topicPatternsIntersect(ps), ps.map((p) => JSON.stringify(p)).join(' / ')).toBe(brute(ps, all));
    }
  });
});
