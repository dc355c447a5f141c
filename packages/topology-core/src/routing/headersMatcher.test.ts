import { describe, expect, it } from 'vitest';
import { headersMatch, parseXMatch } from './headersMatcher.js';

// srv@v3.10.8 rabbit_exchange_type_headers.erl L83-135 (rabbitmq-semantics.md §3, §6 items 47-48)
describe('headers matching', () => {
  const pair = { foo: 'bar', fuu: 'ber' };
  it('item 47: all needs every pair, any needs one', () => {
    const all = { 'x-match': 'all', ...pair };
    const any = { 'x-match': 'any', ...pair };
    expect(headersMatch(all, { foo: 'bar', fuu: 'ber' }, false)).toBe(true);
    expect(headersMatch(any, { foo: 'bar', fuu: 'ber' }, false)).toBe(true);
    expect(headersMatch(all, { foo: 'bar' }, false)).toBe(false);
    expect(headersMatch(any, { foo: 'bar' }, false)).toBe(true);
    expect(headersMatch(all, {}, false)).toBe(false);
    expect(headersMatch(any, {}, false)).toBe(false);
  });

  it('item 48: any with only x- args matches nothing; all with no args matches everything; void = present', () => {
    expect(headersMatch({ 'x-match': 'any', 'x-a': 1 }, { 'x-a': 1 }, false)).toBe(false);
    expect(headersMatch({ 'x-match': 'all' }, {}, false)).toBe(true);
    expect(headersMatch(undefined, { a: 1 }, false)).toBe(true);
    expect(headersMatch({ a: null }, { a: 'anything' }, false)).toBe(true);
    expect(headersMatch({ a: null }, {}, false)).toBe(false);
  });

  it('all/any skip x- binding keys; the -with-x variants compare them', () => {
    const h = { 'x-first-death-reason': 'expired', 'x-first-death-queue': 'Q1' };
    expect(headersMatch({ 'x-match': 'all', 'x-first-death-reason': 'rejected' }, h, false)).toBe(true);
    expect(headersMatch({ 'x-match': 'all-with-x', 'x-first-death-reason': 'rejected' }, h, false)).toBe(false);
    expect(
      headersMatch(
        { 'x-match': 'all-with-x', 'x-first-death-reason': 'expired', 'x-first-death-queue': 'Q1' },
        h,
        false,
      ),
    ).toBe(true);
    expect(
      headersMatch(
        { 'x-match': 'any-with-x', 'x-first-death-reason': 'rejected', 'x-first-death-queue': 'Q1' },
        h,
        false,
      ),
    ).toBe(true);
  });

  it('an unknown x-match is refused (binding_invalid)', () => {
    expect(parseXMatch('some')).toBeUndefined();
    expect(headersMatch({ 'x-match': 'some', a: 1 }, { a: 1 }, false)).toBe(false);
  });

  it('3.10 compares with == (1 == 1.0); 4.x with =:= (RN 3.13, rabbit_exchange_type_headers.erl@v4.2.9 L36-88)', () => {
    const binding = { n: { $type: 'float', value: 1 } };
    expect(headersMatch(binding, { n: 1 }, false)).toBe(true);
    expect(headersMatch(binding, { n: 1 }, true)).toBe(false);
    expect(headersMatch({ n: 1 }, { n: 1 }, true)).toBe(true);
    expect(headersMatch({ n: '1' }, { n: 1 }, false)).toBe(false);
  });
});
