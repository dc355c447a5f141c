import { describe, expect, it } from 'vitest';
import { foldRuns, formatRuns } from './foldRuns.js';

describe('foldRuns', () => {
  it('folds a loop of two queues repeated 17,281 times into one run', () => {
    const path = Array.from({ length: 17_281 }, () => ['work', 'work.wait']).flat();
    expect(foldRuns(path)).toEqual([{ items: ['work', 'work.wait'], count: 17_281 }]);
    expect(formatRuns(path, ' -> ')).toBe('(work -> work.wait) × 17,281');
  });
  it('keeps a prefix and a tail, and leaves short repetition alone', () => {
    expect(formatRuns(['in', 'a', 'b', 'a', 'b', 'a', 'b', 'park'], ' -> ')).toBe('in -> (a -> b) × 3 -> park');
    expect(formatRuns(['a', 'b', 'a', 'b', 'a'], ' -> ')).toBe('a -> b -> a -> b -> a');
    expect(formatRuns(['5 s', '5 s', '5 s', '10 s'], ', ')).toBe('5 s × 3, 10 s');
  });
});
