import { describe, expect, it } from 'vitest';
import { compareObserved } from './compare.js';
import type { Observed } from './types.js';

describe('compareObserved', () => {
  const base: Observed = {
    deliveries: { q: [{ body: 'm', redelivered: false, headers: { a: 1, b: 2 } }] },
    final: {},
  };

  it('tables compare as maps; empty queues and empty lists equal absent ones', () => {
    const got: Observed = {
      deliveries: { q: [{ redelivered: false, headers: { b: 2, a: 1 }, body: 'm' }], other: [] },
      final: { z: [] },
      publish_nacked: [],
    };
    expect(compareObserved(got, base)).toEqual({ match: true, diff: [] });
  });

  it('reports each difference with its path', () => {
    const got: Observed = {
      deliveries: {
        q: [
          { body: 'm', redelivered: true, headers: { a: 1 } },
          { body: 'n', redelivered: false },
        ],
      },
      final: {},
      returned: ['r'],
    };
    const c = compareObserved(got, base);
    expect(c.match).toBe(false);
    expect(c.diff).toEqual([
      'deliveries.q[0].headers.b: expected 2, got nothing',
      'deliveries.q[0].redelivered: expected false, got true',
      'deliveries.q[1]: expected nothing (only 1), got {"body":"n","redelivered":false}',
      'returned[0]: expected nothing (only 0), got "r"',
    ]);
  });
});
