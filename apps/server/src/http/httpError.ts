/**
 * The one error shape the API returns: `{ error, field? }`. Never a stack trace, never a
 * password (messages pass through `redactSecrets` before leaving the server).
 */
import type { ErrorRequestHandler, Response } from 'express';
import { ManagementUrlRejected } from '../broker/brokers.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Replace `scheme://user:password@` with `scheme://user:***@` anywhere in a message. */
export function redactSecrets(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^:/?#@\s]*):([^@\s]*)@/gi, '$1$2:***@');
}

export function sendError(
  res: Response,
  status: number,
  message: string,
  field?: string,
  details?: Record<string, unknown>,
): void {
  if (res.headersSent) return;
  const body: Record<string, unknown> = { error: redactSecrets(message) };
  if (field !== undefined) body.field = field;
  if (details) Object.assign(body, details);
  res.status(status).json(body);
}

/** Last middleware: map anything thrown to `{error, field?}`; unknown errors become a generic 500. */
export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (err instanceof HttpError) return sendError(res, err.status, err.message, err.field, err.details);
  if (err instanceof ManagementUrlRejected)
    return sendError(res, err.reason === 'malformed' ? 400 : 403, err.message, 'managementUrl');
  const e = err as { type?: string; status?: number; message?: string };
  // body-parser errors carry a `type`
  if (e?.type === 'entity.too.large') return sendError(res, 413, 'request body is too large');
  if (e?.type === 'entity.parse.failed') return sendError(res, 400, 'request body is not valid JSON');
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported')
    return sendError(res, 415, 'unsupported body encoding');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500)
    return sendError(res, e.status, e.message ?? 'bad request');
  console.error('internal error:', redactSecrets(String(e?.message ?? err)));
  sendError(res, 500, 'internal error (see the server log)');
};
