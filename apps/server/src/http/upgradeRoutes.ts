/**
 * Upgrade check on a broker (the CLI's `upgrade-check --verify-on`, one engine: verifyOnBroker):
 *   POST /api/upgrade/verify   {design, from, to, broker?, managementUrl?}  declares the original and
 *   the migrated design in throwaway vhosts of the target broker, deleted afterwards; the broker's
 *   answers next to the check's prediction.
 */
import type { Express } from 'express';
import type { Design } from '@retry-studio/topology-core/model';
import type { UpgradeFinding, UpgradeMigration, UpgradeReport } from '@retry-studio/topology-core/upgrade';
import { upgradeVerifyRequest } from '@retry-studio/contract/schemas';
import type { UpgradeVerifyResponse } from '@retry-studio/contract';
import { ManagementResolutionError, redactUrl } from '../broker/index.js';
import { verifyTarget } from '../upgrade/verifyUpgrade.js';
import { verifyDisagrees, verifyOnBroker } from '../upgrade/verifyOnBroker.js';
import { brokerUrlFromRequest } from './brokerUrlFromRequest.js';
import type { AppContext } from './appContext.js';
import { runHeavy } from './heavyRoute.js';
import type { UpgradeCheckInput } from './heavyJobs.js';
import { HttpError } from './httpError.js';
import { parseBody } from './parseBody.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { route } from './route.js';

export function registerUpgradeRoutes(app: Express, ctx: AppContext, limit: RateLimitOptions): void {
  app.post(
    '/api/upgrade/verify',
    rateLimit('upgrade-verify', limit),
    route(async (req, res) => {
      const body = parseBody(upgradeVerifyRequest, req.body);
      if (body.from === body.to) throw new HttpError(400, `from and to are both ${body.to}: nothing changes`, 'to');
      const url = brokerUrlFromRequest(body.broker);
      const opts = {
        from: body.from,
        to: body.to,
        ...(body.failFirst !== undefined ? { failFirst: body.failFirst } : {}),
      };
      // the check and its migration in a worker thread (a 180 KB design took minutes): the broker's part here
      const input: UpgradeCheckInput = { design: body.design, opts };
      const checked = JSON.parse(await runHeavy(ctx, req, res, 'upgrade-check', input)) as {
        design: Design;
        report: UpgradeReport;
        migration: UpgradeMigration;
        migratedFindings: readonly UpgradeFinding[];
      };
      const { design, report, migration, migratedFindings } = checked;
      // the target broker is checked before anything is declared: its line must be the one checked
      const target = await verifyTarget(url, body.managementUrl).catch((e: unknown) => {
        throw new HttpError(
          e instanceof ManagementResolutionError && e.problem === 'other-broker' ? 400 : 502,
          `verify: ${(e as Error).message}`,
          e instanceof ManagementResolutionError ? 'managementUrl' : 'broker',
        );
      });
      if (target.profile !== body.to)
        throw new HttpError(
          400,
          `that broker is RabbitMQ ${target.version} (the ${target.profile} line), not the ${body.to} the check is for`,
          'broker',
        );
      const v = await verifyOnBroker(target, design, report, migration, opts, migratedFindings).catch((e: unknown) => {
        throw new HttpError(502, `verify: ${(e as Error).message}`, 'broker');
      });
      res.json({
        broker: redactUrl(url),
        brokerVersion: target.version,
        ...v,
        agrees: !verifyDisagrees(v),
      } satisfies UpgradeVerifyResponse);
    }),
  );
}
