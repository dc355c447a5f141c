import { describe, expect, it } from 'vitest';
import { RecentKeys } from './recentKeys.js';

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
