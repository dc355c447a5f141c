import { describe, expect, it } from 'vitest';
import { formatCount } from './formatCount.js';

describe('formatCount', () => {
  it.each([0, 7, 12, 999, 1000, 1002, 12345, 999999, 1000000, 123456789, -1, -1234, -1000000, 2 ** 53 - 1])(
    '%i reads as toLocaleString en-US does',
    (n) => expect(formatCount(n)).toBe(n.toLocaleString('en-US')),
  );

  it('groups digits in threes', () => {
    expect(formatCount(1002)).toBe('1,002');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it.each([1234.5678, 0.5, -0, Infinity, NaN, 2 ** 60])('leaves %d to toLocaleString', (n) =>
    expect(formatCount(n)).toBe(n.toLocaleString('en-US')),
  );
});
