import express from 'express';
import { compilePortable } from '@retry-studio/topology-core/io';
import type { LintFinding } from '@retry-studio/topology-core/lint';
import { type Design } from '@retry-studio/topology-core/model';
import type { DeployPlan } from '../deploy/planDeploy.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { redactUrl } from '../broker/index.js';
import { brokerFailure } from './brokerFailure.js';
import { DeployService } from '../deploy/deployService.js';
import { Manifest } from '../deploy/manifest.js';
import { Brokers } from '../broker/brokers.js';
import { brokerUrlFromRequest } from './brokerUrlFromRequest.js';
import { checkPrefixedNames, designOffLoop } from './designInput.js';
import { HttpError, errorHandler, sendError } from './httpError.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { forbiddenKeyGuard, hostCheck, securityHeaders, stateChangeGuard } from './safety.js';
import { deployRequest, planRequest, probeRequest, teardownRequest } from '@retry-studio/contract/schemas';
import type { DeployResponse, PlanResponse, PortableOffer, Probe, TeardownResponse } from '@retry-studio/contract';
import { parseBody } from './parseBody.js';
import type { AppContext } from './appContext.js';
import { route } from './route.js';
import { registerTraceRoutes, type StreamLimits } from './traceRoutes.js';
import { registerOperateRoutes } from './operateRoutes.js';
import { registerRehearseRoutes } from './rehearseRoutes.js';
import { registerUpgradeRoutes } from './upgradeRoutes.js';
import { runHeavy } from './heavyRoute.js';
import { DEFAULT_WORK_LIMITS, HeavyWorkers, type WorkLimits } from '../work/heavyWorkers.js';

/** the worker threads' entry: the heavy job kinds (heavyJobs.ts) */
const HEAVY_WORKER_ENTRY = new URL('./heavyWorker.ts', import.meta.url);

/** the built web app when running from the workspace (the package passes its own) */
const workspaceWebDist = join(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export interface AppOptions {
  readonly port: number;
  /** where the deploy manifest lives (default `.retry-studio/manifest.json` under the cwd; null: memory only) */
  readonly manifestFile?: string | null;
  /** override the rate limits (tests) */
  readonly rateLimits?: Partial<
    Record<'deploy' | 'teardown' | 'trace' | 'probe' | 'plan' | 'rehearse' | 'upgradeVerify', RateLimitOptions>
  >;
  /** how long a broker connection no job uses stays open before it is closed (default 3 s) */
  readonly idleCloseMs?: number;
  /** open event streams allowed per trace and in all (429 beyond) */
  readonly streamLimits?: StreamLimits;
  readonly bodyLimit?: string;
  /** the built web app's folder (default: the workspace's apps/web/dist when it exists) */
  readonly webDist?: string;
  /** heavy work's worker threads: heap, budgets, queue (default DEFAULT_WORK_LIMITS) */
  readonly work?: Partial<WorkLimits>;
}

/**
 * When the plan needs the delayed-message plugin the broker lacks, the core's portable compile
 * (TTL wait queues instead of the plugin) is offered beside it, ready to plan and deploy.
 */
function portableOffer(design: Design, plan: DeployPlan): { portable?: PortableOffer } {
  const needsDelayed = plan.items.some(
    (i) => i.kind === 'exchange' && i.status === 'unsupported' && i.desired.type === 'x-delayed-message',
  );
  if (!needsDelayed) return {};
  const r = compilePortable(design);
  return r.ok
    ? { portable: { ok: true, changes: r.changes, design: r.design } }
    : {
        portable: {
          ok: false,
          errors: r.errors.slice(0, 20).map((e) => ({ field: `design.${e.path}`, message: e.message })),
        },
      };
}

/**
 * The deploy routes: plan, deploy, teardown (each rate-limited: they read or change a whole vhost)
 * and the manifest's list of what this tool deployed.
 */
function registerDeployRoutes(
  app: express.Express,
  ctx: AppContext,
  limits: { readonly plan: RateLimitOptions; readonly deploy: RateLimitOptions; readonly teardown: RateLimitOptions },
): void {
  const prepare = async (
    req: express.Request,
    res: express.Response,
    body: {
      design: unknown;
      broker?: string;
      managementUrl?: string;
      prefix?: string;
      vhost?: string;
    },
  ) => {
    const url = brokerUrlFromRequest(body.broker);
    const { design, warnings } = await designOffLoop(ctx, req, res, body.design);
    const target = ctx.deploy.target(design, url, body);
    checkPrefixedNames(design, target.prefix);
    return { url, design, warnings, target };
  };

  app.post(
    '/api/plan',
    rateLimit('plan', limits.plan),
    route(async (req, res) => {
      const body = parseBody(planRequest, req.body);
      const prepared = await prepare(req, res, body);
      const { url, design, target } = prepared;
      let warnings = prepared.warnings;
      const { plan } = await ctx.deploy.plan(design, url, target, body.managementUrl).catch(brokerFailure('plan'));
      // the linter told how many nodes the target has, so the cluster rules apply (in a worker thread: a big
      // design takes seconds); a lint over its budget leaves the plan without it, saying so
      let lint: { lint?: LintFinding[] } = {};
      if (plan.cluster)
        try {
          const json = await runHeavy(ctx, req, res, 'lint', { design, nodes: plan.cluster.nodes.length });
          lint = { lint: JSON.parse(json) as LintFinding[] };
        } catch (e) {
          if (!(e instanceof HttpError) || (e.status !== 413 && e.status !== 422)) throw e;
          warnings = [...warnings, { path: 'design', message: `not linted with the cluster rules: ${e.message}` }];
        }
      res.json({
        broker: redactUrl(url),
        target,
        plan,
        warnings,
        ...lint,
        ...portableOffer(design, plan),
      } satisfies PlanResponse);
    }),
  );

  app.post(
    '/api/deploy',
    rateLimit('deploy', limits.deploy),
    route(async (req, res) => {
      const body = parseBody(deployRequest, req.body);
      const { url, design, warnings, target } = await prepare(req, res, body);
      const out = await ctx.deploy.deploy(design, url, target, body.managementUrl).catch(brokerFailure('deploy'));
      const status = out.result.ok ? 200 : 502;
      const failure = out.result.failure;
      res.status(status).json({
        ...(failure
          ? {
              error: `could not declare ${failure.kind} '${failure.name}': ${failure.brokerMessage}`,
              field: failure.name,
            }
          : {}),
        broker: redactUrl(url),
        target,
        deployment: out.deployment,
        plan: out.plan,
        result: out.result,
        warnings,
      } satisfies DeployResponse);
    }),
  );

  app.post(
    '/api/teardown',
    rateLimit('teardown', limits.teardown),
    route(async (req, res) => {
      const body = parseBody(teardownRequest, req.body);
      const url = brokerUrlFromRequest(body.broker);
      const target = ctx.deploy.target({ name: body.designName }, url, body);
      const record = ctx.deploy.record(url, target);
      if (!record)
        throw new HttpError(
          404,
          `nothing was deployed by this tool at vhost '${target.vhost}' with prefix '${target.prefix}'`,
          'designName',
        );
      if (record.designName !== body.designName)
        throw new HttpError(
          409,
          `that deployment belongs to design '${record.designName}', not '${body.designName}'`,
          'designName',
        );
      const result = await ctx.deploy
        .teardown(record, url, body.force === true, body.managementUrl)
        .catch(brokerFailure('teardown'));
      if ('refused' in result)
        return sendError(res, 409, result.message, 'force', { ok: false, refused: result.refused });
      res.json({ target, ...result } satisfies TeardownResponse);
    }),
  );

  // what this tool has deployed (the manifest; broker URLs are stored redacted)
  app.get('/api/deployments', (_req, res) => {
    res.json({
      deployments: ctx.manifest.all().map((r) => ({
        id: r.id,
        broker: r.broker,
        vhost: r.vhost,
        prefix: r.prefix,
        designName: r.designName,
        createdVhost: r.createdVhost,
        counts: {
          exchanges: r.exchanges.length,
          queues: r.queues.length,
          bindings: r.bindings.length,
          policies: r.policies.length,
        },
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      })),
    });
  });
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const manifest = new Manifest(options.manifestFile === null ? undefined : options.manifestFile);
  const brokers = new Brokers(options.idleCloseMs);
  const heavy = new HeavyWorkers(HEAVY_WORKER_ENTRY, { ...DEFAULT_WORK_LIMITS, ...options.work });
  const ctx: AppContext = { brokers, manifest, deploy: new DeployService(brokers, manifest), heavy };
  app.locals.ctx = ctx;
  const limits = {
    deploy: { burst: 10, perSecond: 1 },
    // a plan reads the whole vhost through the management API: as costly for a shared broker as a deploy
    plan: { burst: 10, perSecond: 1 },
    teardown: { burst: 10, perSecond: 1 },
    trace: { burst: 5, perSecond: 0.5 },
    probe: { burst: 20, perSecond: 5 },
    rehearse: { burst: 5, perSecond: 0.5 },
    upgradeVerify: { burst: 5, perSecond: 0.5 },
    ...options.rateLimits,
  };

  app.use(securityHeaders);
  app.use(hostCheck);
  app.use('/api', stateChangeGuard());
  app.use('/api', express.json({ limit: options.bodyLimit ?? '2mb', type: 'application/json', strict: true }));
  app.use('/api', forbiddenKeyGuard);

  app.get('/api/health', (_req, res) => {
    res.json({ ok: true });
  });

  // probes are POST: checked for Origin and Sec-Fetch-Site like every state-changing route (a GET
  // let any web page make the server log in to a loopback broker), and no password in a query string
  app.get('/api/broker', (_req, res) => {
    sendError(
      res,
      405,
      'probe a broker with POST /api/broker and a JSON body {"broker": "amqp://...", "managementUrl"?: "..."} (never a URL in the query string)',
      'method',
    );
  });
  app.post(
    '/api/broker',
    rateLimit('probe', limits.probe),
    route(async (req, res) => {
      const body = parseBody(probeRequest, req.body);
      const url = brokerUrlFromRequest(body.broker);
      const probe = await brokers.probe(url, body.managementUrl || undefined).catch(brokerFailure('probe'));
      res.json(probe satisfies Probe);
    }),
  );

  registerDeployRoutes(app, ctx, limits);
  registerTraceRoutes(app, ctx, limits.trace, options.streamLimits);
  registerOperateRoutes(app, ctx);
  registerRehearseRoutes(app, ctx, limits.rehearse);
  registerUpgradeRoutes(app, ctx, limits.upgradeVerify);

  app.use('/api', (_req, res) => sendError(res, 404, 'no such API route'));

  const webDist = options.webDist ?? workspaceWebDist;
  if (existsSync(webDist)) {
    app.use(express.static(webDist));
    app.get(/^\/(?!api\/).*/, (_req, res) => res.sendFile(join(webDist, 'index.html')));
  }
  app.use(errorHandler);
  return app;
}
