/**
 * Operate a live broker (issue 10), over the same engine as `pnpm cli import-broker | dlq ...`:
 *   POST /api/operate/import                 vhost definitions -> design (scaffolded, laid out, linted)
 *   POST /api/operate/depths                 ready/unacked/rates of every queue: ONE management request
 *   POST /api/operate/browse                 the first N messages of a DLQ, grouped by cause, with what looking changed
 *   POST /api/operate/redrive                start a re-drive (or `dryRun`: the plan and its `bounce` warnings, nothing
 *                                            moves); `canary` (+ canaryWaitMs, maxRefail, canaryFromBatch) makes it a
 *                                            canary re-drive; `patch` and `setHeaders` edit each copy
 *   GET  /api/operate/redrive/:id            progress
 *   POST /api/operate/redrive/:id/pause|resume|cancel
 * POST everywhere: the broker URL carries a password, so it travels in a body, never a query.
 */
import type { Express } from 'express';
import type { ChannelModel } from 'amqplib';
import {
  checkCanaryOptions,
  DEFAULT_CANARY_WAIT_MS,
  FORM_CANARY_NAMES,
  headerNameProblem,
  parseJsonPatch,
  parseMaxRefail,
  parseRedriveFilter,
  parseRedriveTarget,
  type CanaryOptions,
  type ImportedDesign,
  type RedriveEdit,
} from '@retry-studio/topology-core/operate';
import { startCanaryRedrive, type CanaryRedrive } from '../operate/canaryRedrive.js';
import {
  BrokerConnectError,
  ManagementError,
  ManagementResolutionError,
  redactUrl,
  type AmqpUrl,
} from '../broker/index.js';
import { browseQueue } from '../operate/browse.js';
import { readDepths } from '../operate/depths.js';
import { importBroker } from '../operate/importBroker.js';
import { OperateError, operateTarget, type OperateTarget } from '../operate/operateTarget.js';
import { dryRunRedrive, startRedrive, type RedriveRequest } from '../operate/redrive.js';
import type { RedriveJob } from '../operate/redriveJob.js';
import type { AppContext } from './appContext.js';
import { route } from './route.js';
import { runHeavy } from './heavyRoute.js';
import { brokerUrlFromRequest } from './brokerUrlFromRequest.js';
import { HttpError } from './httpError.js';
import { rateLimit } from './rateLimit.js';
import { browseRequest, depthsRequest, importRequest, redriveRequest } from '@retry-studio/contract/schemas';
import type {
  BrowseResponse,
  DepthsResponse,
  ImportResponse,
  JobProgress,
  RedriveDryRunResponse,
  RedriveRequestBody,
  RedriveStarted,
} from '@retry-studio/contract';
import { parseBody } from './parseBody.js';

const MAX_KEPT = 50;

function failure(err: unknown): never {
  if (err instanceof OperateError) throw new HttpError(err.status, err.message, err.field);
  if (err instanceof ManagementResolutionError)
    throw new HttpError(err.problem === 'other-broker' ? 400 : 502, err.message, 'managementUrl', {
      management: { tried: err.resolution.tried },
    });
  if (err instanceof BrokerConnectError || err instanceof ManagementError)
    throw new HttpError(502, err.message, 'broker');
  throw err;
}

type RedriveBody = RedriveRequestBody;

/** the edit in a request; errors name the field (`setHeaders`, `patch[2].op`) */
function editFromBody(body: RedriveBody): RedriveEdit | undefined {
  for (const name of Object.keys(body.setHeaders ?? {})) {
    const problem = headerNameProblem(name);
    if (problem) throw new HttpError(400, problem, 'setHeaders');
  }
  let patch: RedriveEdit['patch'];
  if (body.patch) {
    const p = parseJsonPatch(body.patch);
    if (!p.ok) throw new HttpError(400, p.message, `patch${p.path}`);
    patch = p.patch;
  }
  const headers = body.setHeaders && Object.keys(body.setHeaders).length > 0 ? body.setHeaders : undefined;
  if (!patch?.length && !headers) return undefined;
  return { ...(patch?.length ? { patch } : {}), ...(headers ? { setHeaders: headers } : {}) };
}

/** the canary in a request, checked without the selection (the start checks it against the selection) */
function canaryFromBody(body: RedriveBody): CanaryOptions | undefined {
  if (body.canary === undefined) return undefined;
  const mr = parseMaxRefail(String(body.maxRefail ?? 0), FORM_CANARY_NAMES);
  if (!mr.ok) throw new HttpError(400, mr.message, 'maxRefail');
  const o: CanaryOptions = {
    size: body.canary,
    waitMs: body.canaryWaitMs ?? DEFAULT_CANARY_WAIT_MS,
    maxRefail: mr.maxRefail,
    ...(body.canaryFromBatch !== undefined ? { fromBatch: body.canaryFromBatch - 1 } : {}),
  };
  const bad = checkCanaryOptions(o, undefined, FORM_CANARY_NAMES)[0];
  if (bad)
    throw new HttpError(
      400,
      bad.message,
      (
        {
          '--canary': 'canary',
          '--canary-wait-ms': 'canaryWaitMs',
          '--max-refail': 'maxRefail',
          '--canary-from-batch': 'canaryFromBatch',
        } as const
      )[bad.option],
    );
  return o;
}

export function registerOperateRoutes(app: Express, ctx: AppContext): void {
  const jobs = new Map<string, RedriveJob | CanaryRedrive>();

  /** the broker layer resolves (and verifies) the management API; its errors name `managementUrl` */
  const resolve = async (body: {
    broker?: string | undefined;
    managementUrl?: string | undefined;
    vhost?: string | undefined;
  }) => {
    const url = brokerUrlFromRequest(body.broker);
    const management = await ctx.brokers.management(url, body.managementUrl).catch(failure);
    return { url, t: await operateTarget(url, { vhost: body.vhost, management }) };
  };
  /** runs `fn` on the operate connection, released when it returns (no connection outlives its request) */
  const withChannelModel = async <T>(
    body: Parameters<typeof resolve>[0],
    fn: (x: { url: AmqpUrl; t: OperateTarget; conn: ChannelModel }) => Promise<T>,
  ): Promise<T> => {
    const { url, t } = await resolve(body);
    const lease = await ctx.brokers.lease(url, t.vhost, 'operate').catch(failure);
    try {
      return await fn({ url, t, conn: await lease.conn.ready() });
    } finally {
      lease.release();
    }
  };
  const job = (id: string): RedriveJob | CanaryRedrive => {
    const j = jobs.get(id);
    if (!j) throw new HttpError(404, `no re-drive '${id.slice(0, 40)}'`, 'id');
    return j;
  };

  app.post(
    '/api/operate/import',
    route(async (req, res) => {
      const body = parseBody(importRequest, req.body);
      const { url, t } = await resolve(body);
      // the vhost read here, scaffolded in a worker thread (10,000 queues take seconds)
      const r = await importBroker(t, { name: body.name }, (snapshot, name) =>
        runHeavy(ctx, req, res, 'import', { snapshot, ...(name ? { name } : {}) }).then(
          (json) => JSON.parse(json) as ImportedDesign,
        ),
      ).catch(failure);
      if (!r.ok)
        throw new HttpError(
          422,
          `the vhost's definitions cannot be read as a design: ${r.errors[0]?.message ?? ''}`,
          r.errors[0]?.path,
          { errors: r.errors, skipped: r.skipped },
        );
      res.json({ broker: redactUrl(url), ...r } satisfies ImportResponse);
    }),
  );

  app.post(
    '/api/operate/depths',
    route(async (req, res) => {
      const { t } = await resolve(parseBody(depthsRequest, req.body));
      res.json({ vhost: t.vhost, ...(await readDepths(t).catch(failure)) } satisfies DepthsResponse);
    }),
  );

  app.post(
    '/api/operate/browse',
    route(async (req, res) => {
      const body = parseBody(browseRequest, req.body);
      const browsed: BrowseResponse = await withChannelModel(body, ({ t, conn }) =>
        browseQueue(t, conn, {
          queue: body.queue,
          ...(body.limit ? { limit: body.limit } : {}),
          ...(body.insist ? { insist: true } : {}),
        }).catch(failure),
      );
      res.json(browsed);
    }),
  );

  app.post(
    '/api/operate/redrive',
    rateLimit('redrive', { burst: 20, perSecond: 2 }),
    route(async (req, res) => {
      const body = parseBody(redriveRequest, req.body);
      const to = parseRedriveTarget(body.to ?? 'original');
      if (!to.ok) throw new HttpError(400, to.message, 'to');
      const filter = body.filter !== undefined ? parseRedriveFilter(body.filter) : undefined;
      if (filter && !filter.ok) throw new HttpError(400, filter.message, 'filter');
      const edit = editFromBody(body);
      const canary = canaryFromBody(body);
      const r: RedriveRequest = {
        queue: body.queue,
        ...(edit ? { edit } : {}),
        target: to.target,
        ...(filter?.ok ? { filter: filter.filter } : {}),
        ...(body.limit !== undefined ? { limit: body.limit } : {}),
        ...(body.rate !== undefined ? { ratePerSecond: body.rate } : {}),
        ...(body.insist ? { insist: true } : {}),
      };
      if (body.dryRun) {
        const { browse, plan, bounce } = await withChannelModel(body, ({ t, conn }) =>
          dryRunRedrive(t, conn, r).catch(failure),
        );
        res.json({
          dryRun: true,
          queue: body.queue,
          depth: browse.depth,
          effect: browse.effect,
          plan,
          bounce,
        } satisfies RedriveDryRunResponse);
        return;
      }
      // a canary reads its selection on the operate connection, then runs on connections of its own
      const j = canary
        ? await withChannelModel(body, ({ t, conn }) =>
            startCanaryRedrive(t, conn, r, canary, {}, FORM_CANARY_NAMES).catch(failure),
          )
        : await resolve(body).then(({ t }) => startRedrive(t, r).catch(failure));
      jobs.set(j.id, j);
      if (jobs.size > MAX_KEPT)
        for (const [id, old] of jobs) if (!old.isRunning && jobs.size > MAX_KEPT) jobs.delete(id);
      res.status(201).json({ ...j.progress(), progress: `/api/operate/redrive/${j.id}` } satisfies RedriveStarted);
    }),
  );

  app.get(
    '/api/operate/redrive/:id',
    route((req, res) => {
      res.json(job(String(req.params.id)).progress() satisfies JobProgress);
    }),
  );

  app.post(
    '/api/operate/redrive/:id/:action',
    route(async (req, res) => {
      const j = job(String(req.params.id));
      const action = String(req.params.action);
      if ((action === 'pause' || action === 'resume') && !('pause' in j))
        throw new HttpError(409, `a canary re-drive cannot be paused (its batches are short): cancel it`, 'action');
      if (action === 'pause') (j as RedriveJob).pause();
      else if (action === 'resume') (j as RedriveJob).resume();
      else if (action === 'cancel') {
        res.json((await j.cancel()) satisfies JobProgress);
        return;
      } else throw new HttpError(404, `unknown action '${action.slice(0, 40)}' (pause, resume or cancel)`, 'action');
      res.json(j.progress() satisfies JobProgress);
    }),
  );
}
