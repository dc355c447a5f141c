import { describe, expect, it } from 'vitest';
import { normaliseHeaders } from './normaliseHeaders.js';

describe('normaliseHeaders (broker decoding)', () => {
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
    expect(normaliseHeaders({ 'x-death': [] })).toEqual({ 'x-death': [] });
  });

  it('decodes nested typed values and decimals', () => {
    expect(normaliseHeaders({ a: [{ '!': 'timestamp', value: 1 }], d: { '!': 'decimal', value: { places: 2, digits: 150 } }, t: { n: { '!': 'long', value: 7 } } }).headers).toEqual({
      a: [1],
      d: 1.5,
      t: { n: 7 },
    });
  });
});
