import { describe, expect, it } from 'vitest';
import { InferredPasses } from './inferredPasses.js';

describe('InferredPasses', () => {
  it('a copy is the reported pass once; an unreported copy is not', () => {
    const p = new InferredPasses();
    p.add('orders|orders|orders.work.1|m1|orders.wait.1:expired:1');
    expect(p.take('orders|orders|orders.work.1|m2|orders.wait.1:expired:1')).toBe(false);
    expect(p.take('orders|orders|orders.work.1|m1|orders.wait.1:expired:1')).toBe(true);
    expect(p.take('orders|orders|orders.work.1|m1|orders.wait.1:expired:1')).toBe(false);
    expect(p.size).toBe(0);
  });

  it('a pass reported twice awaits two copies', () => {
    const p = new InferredPasses();
    p.add('k');
    p.add('k');
    expect(p.take('k')).toBe(true);
    expect(p.take('k')).toBe(true);
    expect(p.take('k')).toBe(false);
  });

  it('keeps at most `max` keys, letting the oldest go', () => {
    const p = new InferredPasses(3);
    for (const k of ['a', 'b', 'c', 'd']) p.add(k);
    expect(p.size).toBe(3);
    expect(p.take('a')).toBe(false);
    expect(p.take('d')).toBe(true);
    p.clear();
    expect(p.take('b')).toBe(false);
  });
});
