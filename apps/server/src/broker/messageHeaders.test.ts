import { describe, expect, it } from 'vitest';
import { headersForDisplay, headersForScenario, xDeathOf } from './messageHeaders.js';

describe('headersForDisplay', () => {
  it('unwraps timestamps and typed values, previews binary, truncates long strings, drops prototype keys', () => {
    const h = headersForDisplay({
      'x-death': [
        {
          count: 2,
          reason: 'expired',
          queue: 'p.wait',
          time: { '!': 'timestamp', value: 1700000000 },
          exchange: 'p.x',
          'routing-keys': ['k'],
          'original-expiration': '500',
        },
      ],
      big: 'x'.repeat(5000),
      bin: Buffer.from('hello'),
      n: { '!': 'long', value: 12 },
      ['__proto__']: 'no',
    });
    expect(h['x-death']).toEqual([
      {
        count: 2,
        reason: 'expired',
        queue: 'p.wait',
        time: 1700000000,
        exchange: 'p.x',
        'routing-keys': ['k'],
        'original-expiration': '500',
      },
    ]);
    expect(String(h.big)).toMatch(/… \(5000 chars\)$/);
    expect(h.bin).toBe('base64:aGVsbG8=');
    expect(h.n).toBe(12);
    expect(Object.prototype.hasOwnProperty.call(h, '__proto__')).toBe(false);
    expect(xDeathOf(h, (n) => n.replace(/^p\./, ''))).toEqual([
      {
        queue: 'wait',
        reason: 'expired',
        count: 2,
        exchange: 'x',
        'routing-keys': ['k'],
        time: 1700000000,
        'original-expiration': '500',
      },
    ]);
  });
});

describe('headersForScenario (broker decoding)', () => {
  it('keeps the x-death fields the README names, drops time, turns timestamps into numbers', () => {
    const n = headersForScenario({
      'x-death': [
        {
          count: 2,
          reason: 'expired',
          queue: 'w',
          time: { '!': 'timestamp', value: 1700000000 },
          exchange: 'x',
          'routing-keys': ['k'],
          'original-expiration': '100',
        },
      ],
      'x-first-death-queue': 'w',
      'x-sent': { '!': 'timestamp', value: 42 },
    });
    expect(n['x-death']).toEqual([
      { queue: 'w', reason: 'expired', count: 2, exchange: 'x', 'routing-keys': ['k'], 'original-expiration': '100' },
    ]);
    expect(n.headers).toEqual({ 'x-first-death-queue': 'w', 'x-sent': 42 });
  });

  it('omits headers when there are none besides x-death', () => {
    expect(headersForScenario({})).toEqual({});
    expect(headersForScenario(undefined)).toEqual({});
    expect(headersForScenario({ 'x-death': [] })).toEqual({ 'x-death': [] });
  });

  it('decodes nested typed values and decimals', () => {
    expect(
      headersForScenario({
        a: [{ '!': 'timestamp', value: 1 }],
        d: { '!': 'decimal', value: { places: 2, digits: 150 } },
        t: { n: { '!': 'long', value: 7 } },
      }).headers,
    ).toEqual({
      a: [1],
      d: 1.5,
      t: { n: 7 },
    });
  });
});
