/**
 * POST /api/rehearse: a design under a load with failures (the core's rehearse, the same as
 * `retry-studio rehearse`). CPU only, no broker: rate limited like a trace start.
 */
import type { Express } from 'express';
import {
  checkLoad,
  migrateLoad,
  rehearse,
  withTargetWorkers,
  type RehearsalLoad,
} from '@retry-studio/topology-core/rehearse';
import { readCalibration } from '@retry-studio/topology-core/calibration';
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
      // a body with today's names, or an older one (targets[].outages): read by the load file's migration
      const load = migrateLoad(body.load).load as RehearsalLoad;
      // a queue target nobody consumes gets a worker, as the CLI and the browser do
      const { design } = withTargetWorkers(designFromRequest(body.design).design, load);
      let calibration;
      if (body.calibration !== undefined) {
        const c = readCalibration(body.calibration);
        if (!c.ok) {
          const first = c.issues[0]!;
          throw new HttpError(400, first.message, `calibration${first.path ? `.${first.path}` : ''}`, {
            errors: c.issues.map((i) => ({ field: `calibration.${i.path}`, message: i.message, code: i.code })),
          });
        }
        calibration = c.calibration;
      }
      const issues = checkLoad(design, load);
      if (issues.length > 0) {
        const first = issues[0]!;
        throw new HttpError(400, first.message, `load.${first.path}`, {
          errors: issues.map((i) => ({ field: `load.${i.path}`, message: i.message, code: i.code })),
        });
      }
      const report = rehearse(design, load, {
        ...(body.sampleMs !== undefined ? { sampleMs: body.sampleMs } : {}),
        ...(calibration ? { calibration } : {}),
      });
      res.json(report satisfies RehearseResponse);
    }),
  );
}
