import { describe, expect, it } from 'vitest';
import { EventHeap } from './eventHeap.js';
import { mulberry32 } from './rng.js';

describe('EventHeap', () => {
  it('pops by time, and equal times in push order (time, seq)', () => {
    const h = new EventHeap<string>();
    h.push(5, 'c');
    h.push(1, 'a');
    h.push(5, 'd');
    h.push(1, 'b');
    h.push(0, 'z');
    const out: string[] = [];
    for (let x = h.pop(); x !== undefined; x = h.pop()) out.push(x);
    expect(out).toEqual(['z', 'a', 'b', 'c', 'd']);
    expect(h.peekTime()).toBe(Infinity);
  });

  it('agrees with a stable sort on 10,000 random entries', () => {
    const rng = mulberry32(7);
    const h = new EventHeap<number>();
    const ref: { t: number; i: number }[] = [];
    for (let i = 0; i < 10_000; i++) {
      const t = Math.floor(rng.next() * 100);
      h.push(t, i);
      ref.push({ t, i });
    }
    ref.sort((a, b) => a.t - b.t || a.i - b.i);
    const got: number[] = [];
    for (let x = h.pop(); x !== undefined; x = h.pop()) got.push(x);
    expect(got).toEqual(ref.map((r) => r.i));
  });
});
