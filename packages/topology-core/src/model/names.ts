/**
 * RabbitMQ's name rules (docs/queues.md, rabbit_channel `prohibit_reserved_amq`,
 * amqplib `Buffer.byteLength` check). Pure: no TextEncoder (not in lib ES2022).
 */

/** Bytes of a string encoded as UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

export const MAX_NAME_BYTES = 255;

/** Keys that would pollute prototypes when copied into plain objects. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

export interface NameProblem {
  readonly code: 'name-empty' | 'name-too-long' | 'name-reserved' | 'name-bad-char' | 'name-type';
  readonly message: string;
}

/**
 * Problems with an exchange or queue name. `what` is 'exchange' or 'queue'.
 * An empty exchange name is the default exchange (cannot be declared); an empty queue
 * name means "server-named", which a design cannot refer to.
 */
export function checkEntityName(name: unknown, what: 'exchange' | 'queue'): NameProblem | undefined {
  if (typeof name !== 'string') return { code: 'name-type', message: `${what} name must be a string` };
  if (name === '')
    return {
      code: 'name-empty',
      message:
        what === 'exchange'
          ? 'the empty name is the default exchange, which cannot be declared'
          : 'an empty queue name means "server-named"; a design needs a fixed name',
    };
  // a UTF-16 code unit is at most 3 bytes of UTF-8: a short name needs no counting
  const bytes = name.length * 3 <= MAX_NAME_BYTES ? name.length : utf8ByteLength(name);
  if (bytes > MAX_NAME_BYTES)
    return {
      code: 'name-too-long',
      message: `${what} name is ${bytes} bytes of UTF-8; the limit is ${MAX_NAME_BYTES}`,
    };
  if (name.startsWith('amq.'))
    return {
      code: 'name-reserved',
      message: `${what} names starting with "amq." are reserved by the broker (403 ACCESS_REFUSED)`,
    };
  if (/[\r\n]/.test(name)) return { code: 'name-bad-char', message: `${what} name must not contain a line break` };
  return undefined;
}

/** A JSON path segment: `.key` for plain keys, `["key"]` otherwise. */
export function pathKey(base: string, key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

export function pathIndex(base: string, i: number): string {
  return `${base}[${i}]`;
}
