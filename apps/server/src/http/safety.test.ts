import { describe, expect, it } from 'vitest';
import { allowedHosts, findBodyProblem } from './safety.js';
import { redactSecrets } from './httpError.js';

describe('safety helpers', () => {
  it('finds prototype-polluting keys at any depth', () => {
    expect(findBodyProblem(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'))).toEqual({
      kind: 'forbidden-key',
      path: 'a.b[0].__proto__',
      key: '__proto__',
    });
    expect(findBodyProblem({ a: { constructor: 1 } })).toEqual({
      kind: 'forbidden-key',
      path: 'a.constructor',
      key: 'constructor',
    });
    expect(findBodyProblem({ a: [1, 'x', { ok: true }] })).toBeUndefined();
    // nested deeper than 64 levels: said as such, not as a forbidden key
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = { a: deep };
    expect(findBodyProblem(deep)).toMatchObject({ kind: 'too-deep' });
    let fine: unknown = 1;
    for (let i = 0; i < 60; i++) fine = { a: fine };
    expect(findBodyProblem(fine)).toBeUndefined();
  });
  it('allowed hosts: loopback names on our port, plus RETRY_STUDIO_HOSTS (e.g. a dev server)', () => {
    expect([...allowedHosts(8080, [])].sort()).toEqual(['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']);
    expect(allowedHosts(8080, ['localhost:5173']).has('localhost:5173')).toBe(true);
  });
  it('redacts passwords in URLs anywhere in a message', () => {
    expect(redactSecrets('cannot reach amqp://bob:s3cret@host:5672/ now')).toBe(
      'cannot reach amqp://bob:***@host:5672/ now',
    );
    expect(redactSecrets('http://u:p@x and amqps://a:b@c')).toBe('http://u:***@x and amqps://a:***@c');
  });
});
