import { describe, expect, it } from 'vitest';
import { ordinal } from './ordinal.js';
import { collapseRepeats, joinCollapsed } from './collapseRepeats.js';
import { nameList } from './nameList.js';

describe('ordinal', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [10, '10th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [101, '101st'],
    [111, '111th'],
    [112, '112th'],
    [0, '0th'],
  ])('%i → %s', (n, s) => expect(ordinal(n)).toBe(s));
});

describe('collapseRepeats', () => {
  it('folds runs of equal neighbours, keeping order and later repeats apart', () => {
    expect(collapseRepeats(['a', 'a', 'b', 'a'])).toEqual([
      { value: 'a', count: 2 },
      { value: 'b', count: 1 },
      { value: 'a', count: 1 },
    ]);
    expect(collapseRepeats([])).toEqual([]);
  });

  it('prints "0 ms × 20" instead of twenty "0 ms"', () => {
    expect(joinCollapsed([...Array(20).fill('0 ms'), '5 s'])).toBe('0 ms × 20, 5 s');
    expect(joinCollapsed(['1 s', '2 s'])).toBe('1 s, 2 s');
  });
});

describe('nameList', () => {
  it('names every one up to the limit, then counts the rest (6 missing never names 5)', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(nameList(six)).toBe('a, b, c, d, e, f');
    expect(nameList(six, 4)).toBe('a, b, c, d, ... and 2 more');
  });
});
