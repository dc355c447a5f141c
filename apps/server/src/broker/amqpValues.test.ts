import { describe, expect, it } from 'vitest';
import { decodeAmqpTable, decodeAmqpValue, decodeXDeath } from './amqpValues.js';

describe('decodeAmqpValue (exact)', () => {
  it('unwraps typed values, nested, and decimals', () => {
    expect(decodeAmqpValue({ '!': 'timestamp', value: 1700000000 })).toBe(1700000000);
    expect(decodeAmqpValue({ '!': 'decimal', value: { places: 2, digits: 150 } })).toBe(1.5);
    expect(decodeAmqpValue({ a: [{ '!': 'timestamp', value: 1 }], t: { n: { '!': 'long', value: 7 } } })).toEqual({
      a: [1],
      t: { n: 7 },
    });
  });

  it('keeps a table that only has a "!" key among others', () => {
    expect(decodeAmqpValue({ '!': 'x', other: 1 })).toEqual({ '!': 'x', other: 1 });
  });

  it('Buffers become utf8 text, bigints numbers, undefined null; nothing is cut', () => {
    const long = 'x'.repeat(5000);
    expect(decodeAmqpValue(Buffer.from('héllo'))).toBe('héllo');
    expect(decodeAmqpValue(10n)).toBe(10);
    expect(decodeAmqpValue(undefined)).toBeNull();
    expect(decodeAmqpValue(long)).toBe(long);
    expect((decodeAmqpValue(Array.from({ length: 1500 }, () => 1)) as unknown[]).length).toBe(1500);
  });

  it('drops an own __proto__ key without touching the prototype; keeps constructor/prototype headers', () => {
    const t = decodeAmqpTable(
      JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c", "prototype": "p", "a": 1}'),
    );
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
    expect((t as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(t, '__proto__')).toBe(false);
    expect(t).toEqual({ constructor: 'c', prototype: 'p', a: 1 });
  });

  it('a table: not a table -> {}', () => {
    expect(decodeAmqpTable(undefined)).toEqual({});
    expect(decodeAmqpTable('x')).toEqual({});
    expect(decodeAmqpTable([1])).toEqual({});
  });
});

describe('decodeAmqpValue (display limits)', () => {
  const display = { truncate: true, binary: 'base64', dropForbiddenKeys: true } as const;

  it('truncates strings, previews binaries in base64, cuts arrays and depth', () => {
    expect(decodeAmqpValue('x'.repeat(5000), display)).toMatch(/^x{4096}… \(5000 chars\)$/);
    expect(decodeAmqpValue(Buffer.from('hello'), display)).toBe('base64:aGVsbG8=');
    expect(decodeAmqpValue(Buffer.alloc(4000), display)).toMatch(/^base64:A{4096}… \(4000 bytes\)$/);
    expect(
      (
        decodeAmqpValue(
          Array.from({ length: 1500 }, () => 1),
          display,
        ) as unknown[]
      ).length,
    ).toBe(1000);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { d: deep };
    expect(JSON.stringify(decodeAmqpValue(deep, display))).toContain('"[too deep]"');
  });

  it('drops every forbidden key', () => {
    expect(
      decodeAmqpTable(JSON.parse('{"__proto__": 1, "constructor": "c", "prototype": "p", "a": 1}'), display),
    ).toEqual({ a: 1 });
  });
});

describe('decodeXDeath', () => {
  it('decodes one x-death table exactly (time kept, original-expiration as a string)', () => {
    expect(
      decodeXDeath({
        count: { '!': 'long', value: 2 },
        reason: 'expired',
        queue: Buffer.from('w'),
        time: { '!': 'timestamp', value: 1700000000 },
        exchange: 'x',
        'routing-keys': ['k', 3],
        'original-expiration': 100,
      }),
    ).toEqual({
      queue: 'w',
      reason: 'expired',
      count: 2,
      exchange: 'x',
      'routing-keys': ['k', '3'],
      time: 1700000000,
      'original-expiration': '100',
    });
  });

  it('keeps an unknown reason as written; not a table -> empty fields', () => {
    expect(decodeXDeath({ reason: 'odd', queue: 'q' }).reason).toBe('odd');
    expect(decodeXDeath('nope')).toEqual({ queue: '', reason: '', count: 0, exchange: '', 'routing-keys': [] });
    expect(decodeXDeath({ 'original-expiration': null })).not.toHaveProperty('original-expiration');
  });
});
