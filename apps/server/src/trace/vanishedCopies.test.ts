import { describe, expect, it } from 'vitest';
import { VanishedCopies, type VanishedCheck } from './vanishedCopies.js';

/** a check at `now`: the trace counts `traced` copies in q, the broker holds `held` there */
const at = (
  now: number,
  traced: number,
  held: number | undefined,
  lastActivity = 100,
  graceMs = 3000,
): VanishedCheck => ({
  now,
  lastActivity,
  traced: new Map([['q', traced]]),
  held: held === undefined ? new Map() : new Map([['q', held]]),
  graceMs: () => graceMs,
});

describe('VanishedCopies', () => {
  it('names a queue the broker has held empty for the grace while nothing moved, once', () => {
    const v = new VanishedCopies();
    expect(v.check(at(1000, 2, 0))).toEqual([]);
    expect(v.check(at(3999, 2, 0))).toEqual([]);
    expect(v.check(at(4000, 2, 0))).toEqual(['q']);
    // said once: the caller drops the copies; it starts over if they still show
    expect(v.check(at(4100, 2, 0))).toEqual([]);
  });

  it('starts over when anything moved, or the broker holds some, or the count is not exact', () => {
    const v = new VanishedCopies();
    v.check(at(1000, 1, 0));
    expect(v.check(at(5000, 1, 0, 4500))).toEqual([]); // an event at 4500: suspicion starts again at 5000
    expect(v.check(at(7999, 1, 0, 4500))).toEqual([]);
    expect(v.check(at(8000, 1, 1, 4500))).toEqual([]); // the broker holds one: its copy is moving
    expect(v.check(at(9000, 1, 0, 4500))).toEqual([]);
    expect(v.check(at(11_000, 1, undefined, 4500))).toEqual([]); // no exact count (a stream, a node down)
    expect(v.check(at(12_000, 1, 0, 4500))).toEqual([]);
    expect(v.check(at(15_000, 1, 0, 4500))).toEqual(['q']);
  });

  it('waits out a queue’s own grace (a delayed-retry quorum queue does not count what waits)', () => {
    const v = new VanishedCopies();
    const long = (now: number) => ({ ...at(now, 1, 0), graceMs: (q: string) => (q === 'q' ? 13_000 : 3000) });
    v.check(long(0));
    expect(v.check(long(12_000))).toEqual([]);
    expect(v.check(long(13_000))).toEqual(['q']);
  });

  it('leaves a queue the trace counts nothing in', () => {
    const v = new VanishedCopies();
    v.check(at(0, 0, 0));
    expect(v.check(at(10_000, 0, 0))).toEqual([]);
  });
});
