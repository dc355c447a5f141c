import { describe, expect, it } from 'vitest';
import { normalizeHeaders, xDeathOf } from './normalizeHeaders.js';

describe('header normalisation', () => {
  it('unwraps timestamps and typed values, previews binary, truncates long strings, drops prototype keys', () => {
    const h = normalizeHeaders({
      'x-death': [{ count: 2, reason: 'expired', queue: 'p.wait', time: { '!': 'timestamp', value: 1700000000 }, exchange: 'p.x', 'routing-keys': ['k'], 'original-expiration': '500' }],
      big: 'x'.repeat(5000),
      bin: Buffer.from('hello'),
      n: { '!': 'long', value: 12 },
      ['__proto__']: 'no',
    });
    expect(h['x-death']).toEqual([{ count: 2, reason: 'expired', queue: 'p.wait', time: 1700000000, exchange: 'p.x', 'routing-keys': ['k'], 'original-expiration': '500' }]);
    expect(String(h.big)).toMatch(/… \(5000 chars\)$/);
    expect(h.bin).toBe('base64:aGVsbG8=');
    expect(h.n).toBe(12);
    expect(Object.prototype.hasOwnProperty.call(h, '__proto__')).toBe(false);
    expect(xDeathOf(h, (n) => n.replace(/^p\./, ''))).toEqual([
      { queue: 'wait', reason: 'expired', count: 2, exchange: 'x', 'routing-keys': ['k'], time: 1700000000, 'original-expiration': '500' },
    ]);
  });
});
