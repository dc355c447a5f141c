/**
 * Browser-facing safety for a local tool that changes infrastructure
 * (reliability-security.md §3): DNS-rebinding Host check, CSRF checks (Origin,
 * Sec-Fetch-Site, JSON-only bodies), prototype-pollution keys, security headers.
 */
import type { Request, RequestHandler } from 'express';
import { sendError } from './httpError.js';

/**
 * The Host values that mean "this server": loopback names on the port the request came in on
 * (so it also holds for an ephemeral port), plus RETRY_STUDIO_HOSTS (comma-separated host:port).
 */
export function allowedHosts(port: number, extra: readonly string[] = envHosts()): Set<string> {
  return new Set(['localhost', '127.0.0.1', '[::1]'].map((h) => `${h}:${port}`).concat(extra));
}

function envHosts(): string[] {
  return (process.env.RETRY_STUDIO_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
}

export function hostsFor(req: Request): Set<string> {
  return allowedHosts(req.socket.localPort ?? 0);
}

export const hostCheck: RequestHandler = (req, res, next) => {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hostsFor(req).has(host))
    return sendError(res, 403, `Host "${host.slice(0, 100)}" is not this server (DNS rebinding protection)`, 'Host');
  next();
};

function originAllowed(origin: string, hosts: ReadonlySet<string>): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && hosts.has(u.host.toLowerCase());
  } catch {
    return false;
  }
}

/** Reject cross-site requests: a foreign Origin, `Sec-Fetch-Site: cross-site|same-site`. */
export function crossSiteProblem(
  req: Request,
  hosts: ReadonlySet<string>,
): { message: string; field: string } | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site')
    return { message: `cross-site request refused (Sec-Fetch-Site: ${site})`, field: 'Sec-Fetch-Site' };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, hosts))
    return { message: `foreign Origin "${origin.slice(0, 100)}" refused`, field: 'Origin' };
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On state-changing methods: no cross-site, and the body must be JSON (a form or
 * text/plain POST is what a CSRF page can send without a preflight).
 */
export function stateChangeGuard(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const problem = crossSiteProblem(req, hostsFor(req));
    if (problem) return sendError(res, 403, problem.message, problem.field);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      return sendError(
        res,
        415,
        `request body must be application/json (got "${type.slice(0, 60) || 'none'}")`,
        'Content-Type',
      );
    next();
  };
}

/** Same check for streams opened with GET (SSE): a foreign Origin must not read events. */
export function streamOriginGuard(): RequestHandler {
  return (req, res, next) => {
    const problem = crossSiteProblem(req, hostsFor(req));
    if (problem) return sendError(res, 403, problem.message, problem.field);
    next();
  };
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
/** deeper than this a body is refused (no route's body nests that deep; the walk stays bounded) */
export const MAX_BODY_DEPTH = 64;

export type BodyProblem =
  | { readonly kind: 'forbidden-key'; readonly path: string; readonly key: string }
  | { readonly kind: 'too-deep'; readonly path: string };

/** The first forbidden key in a parsed JSON value, or where it nests deeper than MAX_BODY_DEPTH. */
export function findBodyProblem(value: unknown, path = '', depth = 0): BodyProblem | undefined {
  if (depth > MAX_BODY_DEPTH) return { kind: 'too-deep', path: path || '(root)' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = findBodyProblem(value[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const p = path === '' ? key : `${path}.${key}`;
      if (FORBIDDEN.has(key)) return { kind: 'forbidden-key', path: p, key };
      const inner = findBodyProblem((value as Record<string, unknown>)[key], p, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** JSON.parse reviver-free check: express.json keeps `__proto__` as an own key, so we find it; and a body nested too deep says so. */
export const forbiddenKeyGuard: RequestHandler = (req, res, next) => {
  const bad = req.body === undefined ? undefined : findBodyProblem(req.body);
  if (bad?.kind === 'forbidden-key') return sendError(res, 400, `key "${bad.key}" is not allowed`, bad.path);
  if (bad?.kind === 'too-deep')
    return sendError(
      res,
      400,
      `the body nests deeper than ${MAX_BODY_DEPTH} levels (at ${bad.path.slice(0, 200)}${bad.path.length > 200 ? '...' : ''})`,
      bad.path.slice(0, 200),
    );
  next();
};

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  next();
};
