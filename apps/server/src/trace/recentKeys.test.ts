import { describe, expect, it } from 'vitest';
import { hash53, RecentKeys } from './recentKeys.js';

describe('RecentKeys', () => {
  it('remembers a key for at least a generation of later additions, and no more than two', () => {
    const k = new RecentKeys(3);
    k.add('a');
    for (const x of ['b', 'c', 'd']) k.add(x);
    expect(k.has('a')).toBe(true);
    for (const x of ['e', 'f', 'g']) k.add(x);
    expect(k.has('a')).toBe(false);
    expect(k.has('d')).toBe(true);
    k.clear();
    expect(k.has('g')).toBe(false);
  });
});

describe('hash53', () => {
  it('tells apart keys that differ in one character, and gives a key the same hash each time', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `x|work|job|p1-${i}|work.q:rejected:1`);
    expect(new Set(keys.map(hash53)).size).toBe(keys.length);
    expect(hash53(keys[7]!)).toBe(hash53(`x|work|job|p1-7|work.q:rejected:1`));
    expect(Number.isSafeInteger(hash53(keys[0]!))).toBe(true);
  });
});
