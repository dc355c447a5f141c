/**
 * Request bodies checked against the contract's strict schemas (`@retry-studio/contract/schemas`;
 * unknown keys are refused). The design itself is checked by topology-core's `parseDesign`,
 * which reports field-level paths.
 */
import type { z } from 'zod';
import { HttpError } from './httpError.js';

class BadRequest extends HttpError {
  constructor(message: string, field?: string) {
    super(400, message, field);
  }
}

/** Parse or throw a 400 naming the first offending field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
  let message = issue.message;
  let where = field;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    message = `unknown field(s): ${keys.join(', ')}`;
    where = field ? `${field}.${keys[0]}` : keys[0]!;
  }
  throw new BadRequest(message, where || undefined);
}
