/**
 * POST /api/rehearse: a design under a load with failures (the core's rehearse, the same as
 * `retry-studio rehearse`). CPU only, no broker: rate limited like a trace start.
 */
import type { Express } from 'express';
import { checkLoad, rehearse, type RehearsalLoad } from '@retry-studio/topology-core/rehearse';
import { rehearseRequest } from '@retry-studio/contract/schemas';
import type { RehearseResponse } from '@retry-studio/contract';
import { designFromRequest } from './designInput.js';
import { HttpError } from './httpError.js';
import { parseBody } from './parseBody.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { route } from './route.js';

export function registerRehearseRoutes(app: Express, limit: RateLimitOptions): void {
  app.post(
    '/api/rehearse',
    rateLimit('rehearse', limit),
    route(async (req, res) => {
      const body = parseBody(rehearseRequest, req.body);
      const { design } = designFromRequest(body.design);
      const load = body.load as RehearsalLoad;
      const issues = checkLoad(design, load);
      if (issues.length > 0) {
        const first = issues[0]!;
        throw new HttpError(400, first.message, `load.${first.path}`, {
          errors: issues.map((i) => ({ field: `load.${i.path}`, message: i.message, code: i.code })),
        });
      }
      const report = rehearse(design, load, body.sampleMs !== undefined ? { sampleMs: body.sampleMs } : {});
      res.json(report satisfies RehearseResponse);
    }),
  );
}
