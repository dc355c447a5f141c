// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { timeTicks } from './timeTicks';

const labels = (endT: number) => timeTicks(endT).map((t) => t.label);

describe('the timeline axis ticks', () => {
  it('a 1 ms run (every message dropped at once) reads 0 ms and 1 ms, never the same label twice', () => {
    expect(labels(1)).toEqual(['0 ms', '1 ms']);
  });

  it('round steps within the run, placed by their time', () => {
    expect(labels(4000)).toEqual(['0 ms', '1.00 s', '2.00 s', '3.00 s', '4.00 s']);
    const t = timeTicks(4540);
    expect(t.map((x) => x.label)).toEqual(['0 ms', '2.00 s', '4.00 s']);
    expect(t[1]!.at).toBeCloseTo(2000 / 4540);
    expect(labels(30)).toEqual(['0 ms', '10 ms', '20 ms', '30 ms']);
    expect(labels(10_000)).toEqual(['0 ms', '2.50 s', '5.00 s', '7.50 s', '10.00 s']);
    expect(labels(9)).toEqual(['0 ms', '5 ms']);
    // a one-day TTL: whole hours, not 6.94 h
    expect(labels(25 * 3_600_000)).toEqual(['0 ms', '12.00 h', '24.00 h']);
    expect(labels(90 * 60_000)).toEqual(['0 ms', '30.00 min', '1.00 h', '1.50 h']);
  });

  it('labels are distinct for any run length', () => {
    for (const endT of [1, 2, 3, 7, 13, 99, 250, 999, 1001, 61_000, 3_700_000]) {
      const l = labels(endT);
      expect(new Set(l).size).toBe(l.length);
      expect(timeTicks(endT).every((x) => x.at >= 0 && x.at <= 1)).toBe(true);
    }
  });
});
