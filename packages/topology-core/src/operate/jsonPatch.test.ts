/** RFC 6902 Appendix A, example by example (A.1 to A.16), and the patch document's own errors. */
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, parseJsonPatch, type JsonValue } from './jsonPatch.js';

function apply(doc: JsonValue, patch: unknown): ReturnType<typeof applyJsonPatch> {
  const p = parseJsonPatch(patch);
  if (!p.ok) throw new Error(p.message);
  return applyJsonPatch(doc, p.patch);
}
const ok = (doc: JsonValue, patch: unknown, want: JsonValue): void =>
  expect(apply(doc, patch)).toEqual({ ok: true, value: want });
const fails = (doc: JsonValue, patch: unknown): void => expect(apply(doc, patch).ok).toBe(false);

describe('RFC 6902 appendix A', () => {
  it('A.1 adding an object member', () =>
    ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }));
  it('A.2 adding an array element', () =>
    ok({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }));
  it('A.3 removing an object member', () =>
    ok({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }));
  it('A.4 removing an array element', () =>
    ok({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }));
  it('A.5 replacing a value', () =>
    ok({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }));
  it('A.6 moving a value', () =>
    ok(
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      {
        foo: { bar: 'baz' },
        qux: { corge: 'grault', thud: 'fred' },
      },
    ));
  it('A.7 moving an array element', () =>
    ok({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], {
      foo: ['all', 'cows', 'eat', 'grass'],
    }));
  it('A.8 testing a value: success', () =>
    ok(
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ));
  it('A.9 testing a value: error', () => fails({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
  it('A.10 adding a nested member object', () =>
    ok({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], {
      foo: 'bar',
      child: { grandchild: {} },
    }));
  it('A.11 ignoring unrecognized elements', () =>
    ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }));
  it('A.12 adding to a nonexistent target', () =>
    fails({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]));
  it('A.13 invalid JSON patch document', () => {
    // the RFC's example is a JSON text with a duplicate "op"; parsed, the last wins: a remove with no op-specific problem.
    // What a parser can see: an operation without its value
    expect(parseJsonPatch([{ op: 'add', path: '/baz' }])).toMatchObject({ ok: false, path: '[0].value' });
  });
  it('A.14 ~ escape ordering', () =>
    ok({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }));
  it('A.15 comparing strings and numbers', () =>
    fails({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]));
  it('A.16 adding an array value', () =>
    ok({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }));
});

describe('applyJsonPatch', () => {
  it('applies whole or not at all, and says which operation failed', () => {
    const doc = { a: 1 };
    const r = apply(doc, [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'remove', path: '/nope' },
    ]);
    expect(r).toMatchObject({ ok: false, index: 1, message: expect.stringContaining('operation 1 (remove /nope)') });
    expect(doc).toEqual({ a: 1 });
  });
  it('names the bad field of a patch document', () => {
    expect(parseJsonPatch({})).toMatchObject({ ok: false });
    expect(parseJsonPatch([{ op: 'frob', path: '/a' }])).toMatchObject({ ok: false, path: '[0].op' });
    expect(parseJsonPatch([{ op: 'remove', path: 'a' }])).toMatchObject({ ok: false, path: '[0].path' });
    expect(parseJsonPatch([{ op: 'copy', path: '/a' }])).toMatchObject({ ok: false, path: '[0].from' });
  });
});

describe('paths through __proto__, constructor or prototype', () => {
  it('are refused when the patch is read, naming the operation and the key', () => {
    for (const [op, field] of [
      [{ op: 'add', path: '/__proto__', value: { polluted: true } }, 'path'],
      [{ op: 'replace', path: '/a/constructor/prototype', value: 1 }, 'path'],
      [{ op: 'copy', from: '/__proto__', path: '/x' }, 'from'],
      [{ op: 'move', from: '/a', path: '/b/prototype' }, 'path'],
    ] as const) {
      const r = parseJsonPatch([{ op: 'test', path: '/a', value: 1 }, op]);
      expect(r.ok, JSON.stringify(op)).toBe(false);
      if (r.ok) continue;
      expect(r.path).toBe(`[1].${field}`);
      expect(r.message).toMatch(/may not touch/);
    }
    // an escaped key that only looks like one is a plain field
    expect(parseJsonPatch([{ op: 'add', path: '/__proto~1x', value: 1 }]).ok).toBe(true);
  });
});
