import { describe, expect, it } from 'vitest';
import { attemptDraw, mulberry32 } from './rng.js';

describe('mulberry32', () => {
  it('is deterministic per seed and uniform-ish in [0,1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b.next()));
    expect(xs[0]).not.toBe(c.next());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});

describe('attemptDraw', () => {
  it('depends only on (seed, message, attempt), and on each of them', () => {
    expect(attemptDraw(7, 3, 2)).toBe(attemptDraw(7, 3, 2));
    const base = attemptDraw(7, 3, 2);
    expect(new Set([base, attemptDraw(8, 3, 2), attemptDraw(7, 4, 2), attemptDraw(7, 3, 3)]).size).toBe(4);
    const draws = Array.from({ length: 2000 }, (_, i) => attemptDraw(1, i + 1, 1));
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    // roughly uniform: about half below 0.5
    expect(Math.abs(draws.filter((d) => d < 0.5).length - 1000)).toBeLessThan(100);
  });
});
