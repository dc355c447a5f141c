import { describe, expect, it } from 'vitest';
import { backWithinBand, drainAgainstBaseline } from './drain.js';

const series = (depth: number[], step = 1000) => ({ t: depth.map((_, i) => i * step), depth });

describe('drain against the outage-free band', () => {
  it('is the first instant from which the run stays within the baseline, widened by its 5 s window', () => {
    // the baseline busy with errors: up to 5 in the retry queue now and then
    const base = series([0, 5, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const run = series([0, 5, 0, 90, 90, 60, 30, 5, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // the outage ends at 3 s; above the band until 6 s, at 7 s and 8 s within it (the 5 at 7 s is the baseline's own)
    expect(backWithinBand(run, base, 3000, 0, 1000)).toBe(7000);
    expect(drainAgainstBaseline(new Map([['q', run]]), new Map([['q', base]]), 3000, 0, 1000)).toBe(4000);
  });

  it('never back (the last sample above the band) is null; nothing above is at once', () => {
    const base = series([0, 0, 0, 0]);
    expect(backWithinBand(series([0, 0, 3, 9]), base, 1000, 0, 1000)).toBeNull();
    expect(backWithinBand(series([0, 1, 1, 0]), base, 1000, 2, 1000)).toBe(1000);
  });
});
