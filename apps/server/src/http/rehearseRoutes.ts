/**
 * POST /api/rehearse: a design under a load with failures (the core's rehearse, the same as
 * `retry-studio rehearse`). CPU only, no broker: rate limited like a trace start, and run in a
 * worker thread within the server's budgets (heavyJobs.ts: a load too big is refused before it
 * runs, naming the field that makes it big).
 */
import type { Express } from 'express';
import { rehearseRequest } from '@retry-studio/contract/schemas';
import type { AppContext } from './appContext.js';
import { runHeavy, sendJson } from './heavyRoute.js';
import { parseBody } from './parseBody.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { route } from './route.js';

export function registerRehearseRoutes(app: Express, ctx: AppContext, limit: RateLimitOptions): void {
  app.post(
    '/api/rehearse',
    rateLimit('rehearse', limit),
    route(async (req, res) => {
      const body = parseBody(rehearseRequest, req.body);
      sendJson(res, await runHeavy(ctx, req, res, 'rehearse', body));
    }),
  );
}
