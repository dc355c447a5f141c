import { describe, expect, it } from 'vitest';
import type { XDeathEntry } from '@retry-studio/topology-core/model';
import { LostRejects } from './lostRejects.js';

const death = (count: number): XDeathEntry[] => [
  { queue: 'work.q', reason: 'rejected', count, exchange: 'work', 'routing-keys': ['job'] },
];

describe('LostRejects', () => {
  it('a redelivery with the x-death it was rejected with, after its channel closed: the reject was lost (said once)', () => {
    const l = new LostRejects<object>();
    const ch = {};
    l.rejected(ch, 'p-1', death(1));
    // while the channel lives, a reject is not in doubt
    expect(l.lost('p-1', true, death(1))).toBe(false);
    l.closed(ch);
    expect(l.lost('p-1', false, death(1))).toBe(false);
    expect(l.lost('p-1', true, death(1))).toBe(true);
    expect(l.lost('p-1', true, death(1))).toBe(false);
  });

  it('a copy that was dead-lettered and came back (one more death) is not the lost one', () => {
    const l = new LostRejects<object>();
    const ch = {};
    l.rejected(ch, 'p-2', undefined);
    l.closed(ch);
    expect(l.lost('p-2', true, death(1))).toBe(false);
    expect(l.lost('p-2', true, undefined)).toBe(true);
  });
});
