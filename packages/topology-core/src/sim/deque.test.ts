import { describe, expect, it } from 'vitest';
import { Deque } from './deque.js';

describe('Deque', () => {
  it('is a FIFO that survives compaction', () => {
    const d = new Deque<number>();
    for (let i = 0; i < 5000; i++) d.push(i);
    for (let i = 0; i < 4000; i++) expect(d.shift()).toBe(i);
    expect(d.length).toBe(1000);
    expect(d.peek()).toBe(4000);
    expect(d.toArray().slice(0, 2)).toEqual([4000, 4001]);
  });

  it('insertSorted puts an item back at its original position', () => {
    const d = new Deque<number>();
    [1, 2, 4, 5].forEach((x) => d.push(x));
    d.shift();
    d.insertSorted(3, (x) => x);
    d.insertSorted(0, (x) => x);
    d.insertSorted(9, (x) => x);
    expect(d.toArray()).toEqual([0, 2, 3, 4, 5, 9]);
  });
});
