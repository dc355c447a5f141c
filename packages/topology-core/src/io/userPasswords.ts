/**
 * The users of a definitions file are not imported (notModelled.ts), but what RabbitMQ does with
 * their passwords decides whether the file loads at all (measured with POST /api/definitions on
 * 3.10.8 and 4.3.6): a `password_hash` that is not base64 fails the whole import with 400
 * not_base64; a plain-text `password` is hashed by the broker and logs in (the file holds the
 * secret in clear); an empty `password_hash` is a user with no password.
 */
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { pathIndex } from '../model/names.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function userPasswordNotes(input: { readonly [k: string]: unknown }): ValidationIssue[] {
  const users = Array.isArray(input.users) ? input.users : [];
  const out: ValidationIssue[] = [];
  const plain: string[] = [];
  users.forEach((u, i) => {
    if (!isPlainObject(u)) return;
    const name = typeof u.name === 'string' ? u.name : `users[${i}]`;
    if (typeof u.password_hash === 'string' && u.password_hash !== '' && !BASE64.test(u.password_hash))
      out.push({
        path: `${pathIndex('users', i)}.password_hash`,
        code: 'password-hash-not-base64',
        message: `user ${JSON.stringify(name)}: password_hash is not base64 (a plain-text password in the hash field?): RabbitMQ refuses the whole definitions import with 400 not_base64 (measured on 3.10.8 and 4.3.6); write the password as "password" or hash it`,
      });
    if (typeof u.password === 'string') plain.push(name);
  });
  if (plain.length > 0)
    out.push({
      path: 'users',
      code: 'password-plain-text',
      message: `${plain.length} user(s) (${plain
        .slice(0, 5)
        .map((n) => JSON.stringify(n))
        .join(
          ', ',
        )}) carry a plain-text "password": RabbitMQ hashes it on import and the user logs in with it (measured), so the file holds the secret in clear; users are not imported here`,
    });
  return out;
}
