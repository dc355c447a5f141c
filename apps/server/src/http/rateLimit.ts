/** A small in-memory token bucket per (route, client address). */
import type { RequestHandler } from 'express';
import { sendError } from './httpError.js';

export interface RateLimitOptions {
  /** bucket size */
  readonly burst: number;
  /** tokens added per second */
  readonly perSecond: number;
}

export function rateLimit(name: string, opts: RateLimitOptions): RequestHandler {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req, res, next) => {
    const key = `${name}|${req.socket.remoteAddress ?? '?'}`;
    const now = Date.now();
    const b = buckets.get(key) ?? { tokens: opts.burst, at: now };
    b.tokens = Math.min(opts.burst, b.tokens + ((now - b.at) / 1000) * opts.perSecond);
    b.at = now;
    if (b.tokens < 1) {
      buckets.set(key, b);
      const retry = Math.ceil((1 - b.tokens) / opts.perSecond);
      res.setHeader('Retry-After', String(retry));
      return sendError(res, 429, `too many ${name} requests; retry in ${retry} s`);
    }
    b.tokens -= 1;
    buckets.set(key, b);
    if (buckets.size > 10_000) buckets.clear(); // bounded memory
    next();
  };
}
