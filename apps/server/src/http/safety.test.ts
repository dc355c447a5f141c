import { describe, expect, it } from 'vitest';
import { allowedHosts, findForbiddenKey } from './safety.js';
import { redactSecrets } from './httpError.js';

describe('safety helpers', () => {
  it('finds prototype-polluting keys at any depth', () => {
    expect(findForbiddenKey(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'))).toBe('a.b[0].__proto__');
    expect(findForbiddenKey({ a: { constructor: 1 } })).toBe('a.constructor');
    expect(findForbiddenKey({ a: [1, 'x', { ok: true }] })).toBeUndefined();
  });
  it('allowed hosts: loopback names on our port, plus RETRY_STUDIO_HOSTS (e.g. a dev server)', () => {
    expect([...allowedHosts(8080, [])].sort()).toEqual(['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']);
    expect(allowedHosts(8080, ['localhost:5173']).has('localhost:5173')).toBe(true);
  });
  it('redacts passwords in URLs anywhere in a message', () => {
    expect(redactSecrets('cannot reach amqp://bob:s3cret@host:5672/ now')).toBe('cannot reach amqp://bob:***@host:5672/ now');
    expect(redactSecrets('http://u:p@x and amqps://a:b@c')).toBe('http://u:***@x and amqps://a:***@c');
  });
});
