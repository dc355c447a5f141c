import { describe, expect, it } from 'vitest';
import { compareObserved } from './compareObserved.js';
import { normaliseHeaders } from './normaliseHeaders.js';

describe('normaliseHeaders', () => {
  it('keeps the x-death fields the README names, drops time, turns timestamps into numbers', () => {
    const n = normaliseHeaders({
      'x-death': [
        { count: 2, reason: 'expired', queue: 'w', time: { '!': 'timestamp', value: 1700000000 }, exchange: 'x', 'routing-keys': ['k'], 'original-expiration': '100' },
      ],
      'x-first-death-queue': 'w',
      'x-sent': { '!': 'timestamp', value: 42 },
    });
    expect(n['x-death']).toEqual([{ queue: 'w', reason: 'expired', count: 2, exchange: 'x', 'routing-keys': ['k'], 'original-expiration': '100' }]);
    expect(n.headers).toEqual({ 'x-first-death-queue': 'w', 'x-sent': 42 });
  });

  it('omits headers when there are none besides x-death', () => {
    expect(normaliseHeaders({})).toEqual({});
    expect(normaliseHeaders(undefined)).toEqual({});
  });
});

describe('compareObserved', () => {
  const base = { deliveries: { q: [{ body: 'a', redelivered: false }] }, final: {} };
  it('matches regardless of key order and of missing empty lists', () => {
    expect(compareObserved(base, { final: {}, deliveries: { q: [{ redelivered: false, body: 'a' }] }, publish_nacked: [] })).toEqual([]);
  });
  it('reports the path of each difference', () => {
    const d = compareObserved(base, { deliveries: { q: [{ body: 'a', redelivered: true }] }, final: { p: [{ body: 'a' }] } });
    expect(d.map((x) => x.path)).toEqual(['deliveries.q[0].redelivered', 'final.p']);
  });
  it('is order-sensitive within a queue', () => {
    const two = { deliveries: { q: [{ body: 'a', redelivered: false }, { body: 'b', redelivered: false }] }, final: {} };
    const swapped = { deliveries: { q: [{ body: 'b', redelivered: false }, { body: 'a', redelivered: false }] }, final: {} };
    expect(compareObserved(two, swapped).length).toBeGreaterThan(0);
  });
});
