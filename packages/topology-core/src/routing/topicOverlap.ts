/**
 * Whether topic patterns can match a common routing key, decided exactly: each pattern is an
 * automaton over words (a literal word takes that word, `*` any one word, `#` any number of
 * words, both only as whole words: topicMatcher.ts), and a key both (all) take exists when the
 * product automaton reaches the end of every pattern. States are tuples of positions, so the
 * search is at most the product of the patterns' lengths (plus one each).
 */
import { topicWords } from './topicMatcher.js';

/** One pattern's possible next word: a literal, or any word. */
const ANY = Symbol('any word');

export function topicPatternsIntersect(patterns: readonly string[]): boolean {
  const ps = patterns.map(topicWords);
  if (ps.length === 0) return true;
  const start = ps.map(() => 0);
  const key = (s: readonly number[]): string => s.join(',');
  const seen = new Set<string>();
  const work: number[][] = [];
  const push = (s: number[]): void => {
    const k = key(s);
    if (seen.has(k)) return;
    seen.add(k);
    work.push(s);
  };
  push(start);
  while (work.length > 0) {
    const s = work.pop()!;
    if (s.every((i, n) => i === ps[n]!.length)) return true;
    // a `#` may match no word: skip it
    s.forEach((i, n) => {
      if (ps[n]![i] === '#') push(s.map((x, m) => (m === n ? x + 1 : x)));
    });
    // take one word every pattern can take: each pattern's options at its position
    const options: { word: string | typeof ANY; next: number }[][] = s.map((i, n) => {
      const w = ps[n]![i];
      if (w === undefined) return [];
      if (w === '#') return [{ word: ANY, next: i }];
      return [{ word: w === '*' ? ANY : w, next: i + 1 }];
    });
    if (options.some((o) => o.length === 0)) continue;
    // the literals the patterns ask for must agree (wildcards take any word)
    const literals = new Set(options.map((o) => o[0]!.word).filter((w): w is string => w !== ANY));
    if (literals.size > 1) continue;
    push(options.map((o) => o[0]!.next));
  }
  return false;
}

/** Whether two topic patterns (or a pattern and a key) match a common routing key. */
export const topicPatternsOverlap = (a: string, b: string): boolean => topicPatternsIntersect([a, b]);
