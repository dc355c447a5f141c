import { describe, expect, it } from 'vitest';
import { delaysAgree } from './liveTrace.js';

describe('delaysAgree', () => {
  it('a predicted wait: late by up to 150 ms + 20%', () => {
    expect(delaysAgree([1000, 2000], [1100, 2350])).toBe(true);
    expect(delaysAgree([1000, 2000], [1100, 2600])).toBe(false);
    expect(delaysAgree([200], [3])).toBe(false);
  });
  it('immediate retries: one stall of a busy broker is not a wait, a real wait is', () => {
    expect(delaysAgree([0, 0, 0, 0, 0], [2, 216, 1, 3, 1])).toBe(true);
    expect(delaysAgree([0, 0, 0], [1000, 1000, 2])).toBe(false);
  });
});
