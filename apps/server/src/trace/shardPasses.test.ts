import { describe, expect, it } from 'vitest';
import { ShardPasses } from './shardPasses.js';

describe('ShardPasses', () => {
  it('observes a BCC pass once, whichever shard shows it first', () => {
    const p = new ShardPasses(3);
    expect([p.firstSight('m1', 2), p.firstSight('m1', 0), p.firstSight('m1', 1)]).toEqual([true, false, false]);
  });

  it('keeps two identical passes two, even when one shard runs ahead', () => {
    const p = new ShardPasses(2);
    // shard 0 shows both passes before shard 1 shows its first
    expect([p.firstSight('m1', 0), p.firstSight('m1', 0), p.firstSight('m1', 1), p.firstSight('m1', 1)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // a third pass first seen in shard 1
    expect([p.firstSight('m1', 1), p.firstSight('m1', 0)]).toEqual([true, false]);
  });

  it('tells signatures apart and forgets the oldest beyond its bound', () => {
    const p = new ShardPasses(2, 2);
    expect([p.firstSight('a', 0), p.firstSight('b', 0), p.firstSight('c', 1)]).toEqual([true, true, true]);
    // 'a' was forgotten: its copy in shard 1 counts as new (the bound trades memory for a possible double)
    expect(p.firstSight('a', 1)).toBe(true);
    expect(p.firstSight('c', 0)).toBe(false);
  });
});
