/**
 * Live trace API:
 *   POST /api/trace                 start (design must be deployed at the target)
 *   GET  /api/trace/:id             summary
 *   GET  /api/trace/:id/events      Server-Sent Events (SimEvents; `event: notice` for the rest)
 *   GET  /api/trace/:id/prediction  the simulator's prediction and the first difference
 *   POST /api/trace/:id/stop
 */
import { nameList } from '@retry-studio/topology-core/text';
import type { Express, Response } from 'express';
import { validateFailureModel, type Design, type FailureModel } from '@retry-studio/topology-core/model';
import { firstMessages, parseNodeLoss, type NodeLoss } from '@retry-studio/topology-core/sim';
import { redactUrl } from '../broker/index.js';
import { compareTrace, predict, MAX_COMPARED_EVENTS, MAX_PREDICTED_MESSAGES } from '../trace/prediction.js';
import { TraceSession } from '../trace/traceSession.js';
import type { AppContext } from './appContext.js';
import { brokerFailure } from './brokerFailure.js';
import { brokerUrlFromRequest } from './brokerUrlFromRequest.js';
import { checkPrefixedNames, designOffLoop } from './designInput.js';
import { HttpError, sendError } from './httpError.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { route } from './route.js';
import { streamOriginGuard } from './safety.js';
import { traceRequest } from '@retry-studio/contract/schemas';
import type { PredictionResponse, TraceStart, TraceSummary } from '@retry-studio/contract';
import { parseBody } from './parseBody.js';

const MAX_RUNNING = 4;
/** SSE streams: a trace is watched by a tab or two; a client that opens hundreds is refused (429) */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perTrace: 100, overall: 400 };

export interface StreamLimits {
  readonly perTrace: number;
  readonly overall: number;
}
const MAX_KEPT = 20;

/** `failure` of a trace request: the core's FailureModel, or a 400 naming the field. */
function failureFromRequest(f: unknown): FailureModel | undefined {
  if (f === undefined) return undefined;
  const issue = validateFailureModel(f, 'failure')[0];
  if (issue) throw new HttpError(400, issue.message, issue.path);
  return f as FailureModel;
}

/** `nodeLoss` of a trace request: the core's NodeLoss on the design's queues, or a 400 naming the field. */
function nodeLossFromRequest(x: unknown, design: Design): NodeLoss | undefined {
  if (x === undefined) return undefined;
  const r = parseNodeLoss(x, new Set(design.topology.queues.map((q) => q.name)));
  if ('message' in r) throw new HttpError(400, r.message, r.path);
  return r.loss;
}

export function registerTraceRoutes(
  app: Express,
  ctx: AppContext,
  limit: RateLimitOptions,
  streamLimits: StreamLimits = DEFAULT_STREAM_LIMITS,
): void {
  const sessions = new Map<string, TraceSession>();
  /** open event streams, per trace and in all */
  const streams = new Map<string, number>();
  let streamsOpen = 0;
  app.locals.traces = sessions;

  const get = (id: string): TraceSession => {
    const s = sessions.get(id);
    if (!s) throw new HttpError(404, `no trace '${id.slice(0, 40)}'`, 'id');
    return s;
  };

  app.post(
    '/api/trace',
    rateLimit('trace', limit),
    route(async (req, res) => {
      const body = parseBody(traceRequest, req.body);
      const failure = failureFromRequest(body.failure);
      const url = brokerUrlFromRequest(body.broker);
      const { design } = await designOffLoop(ctx, req, res, body.design);
      const nodeLoss = nodeLossFromRequest(body.nodeLoss, design);
      const target = ctx.deploy.target(design, url, body);
      checkPrefixedNames(design, target.prefix);
      if (body.publisher !== undefined && !design.publishers.some((p) => p.id === body.publisher))
        throw new HttpError(400, `no publisher '${body.publisher}' in the design`, 'publisher');
      if (design.publishers.length === 0)
        throw new HttpError(400, 'the design has no publisher to publish test messages from', 'design.publishers');
      // one trace per deployment: the design's consumers would otherwise compete for its messages
      const same = [...sessions.values()].find(
        (s) =>
          s.isRunning &&
          s.target.vhost === target.vhost &&
          s.target.prefix === target.prefix &&
          s.brokerKey === redactUrl(url),
      );
      if (same)
        throw new HttpError(
          409,
          `trace '${same.traceId}' is still running on this deployment; stop it first`,
          'design',
        );
      const running = [...sessions.values()].filter((s) => s.isRunning).length;
      if (running >= MAX_RUNNING) throw new HttpError(429, `${running} traces are running; stop one first`);
      const { plan } = await ctx.deploy.plan(design, url, target, body.managementUrl).catch(brokerFailure('trace'));
      // a missing binding is a deployment the broker changed: traced as the broker routes (a difference from the prediction)
      const missing = plan.items.filter(
        (i) => i.kind !== 'binding' && (i.status === 'create' || i.status === 'unsupported'),
      );
      const missingBindings = plan.items
        .filter((i) => i.kind === 'binding' && i.status === 'create')
        .map((i) => i.name);
      if (missing.length > 0)
        throw new HttpError(
          409,
          `the design is not deployed at vhost '${target.vhost}' prefix '${target.prefix}': ${missing.length} object(s) missing (${nameList(missing.map((m) => m.name))}); deploy it first`,
          'design',
          {
            missing: missing.map((m) => ({ kind: m.kind, name: m.name, status: m.status })),
          },
        );
      const mgmt = await ctx.brokers.management(url, body.managementUrl).catch(brokerFailure('trace'));
      // the trace's connection lives as long as the trace: released (and closed when idle) once it ends
      const lease = await ctx.brokers.lease(url, target.vhost, 'trace').catch((err: Error) => {
        throw new HttpError(502, err.message, 'broker');
      });
      const session = new TraceSession(design, target, lease.conn, mgmt, redactUrl(url), {
        ...(body.publisher ? { publisher: body.publisher } : {}),
        ...(body.messages ? { messages: body.messages } : {}),
        ...(body.ratePerSecond ? { ratePerSecond: body.ratePerSecond } : {}),
        ...(body.headers ? { headers: body.headers } : {}),
        ...(body.expiration ? { expiration: body.expiration } : {}),
        ...(body.priority !== undefined ? { priority: body.priority } : {}),
        ...(body.persistent !== undefined ? { persistent: body.persistent } : {}),
        ...(body.durationMs ? { durationMs: body.durationMs } : {}),
        ...(failure ? { failure } : {}),
        ...(body.seed !== undefined ? { seed: body.seed } : {}),
        ...(nodeLoss ? { nodeLoss } : {}),
      });
      void session.done().finally(() => lease.release());
      sessions.set(session.traceId, session);
      // forget the oldest finished traces
      if (sessions.size > MAX_KEPT)
        for (const [id, s] of sessions) if (!s.isRunning && sessions.size > MAX_KEPT) sessions.delete(id);
      await session.start().catch(async (err: Error) => {
        await session.stop('failed');
        sessions.delete(session.traceId);
        throw new HttpError(502, err.message, 'broker');
      });
      const conflicts = plan.items.filter((i) => i.status === 'conflict').map((i) => i.name);
      const warnings = [
        ...(conflicts.length
          ? [
              `these objects exist with other settings, so the broker may route differently from the design: ${conflicts.join(', ')}`,
            ]
          : []),
        ...(missingBindings.length
          ? [
              `these bindings are missing on the broker, so it routes differently from the design: ${missingBindings.slice(0, 10).join(', ')}`,
            ]
          : []),
      ];
      res.status(201).json({
        id: session.traceId,
        broker: redactUrl(url),
        target,
        events: `/api/trace/${session.traceId}/events`,
        prediction: `/api/trace/${session.traceId}/prediction`,
        ...(warnings.length ? { warning: warnings.join('; ') } : {}),
      } satisfies TraceStart);
    }),
  );

  app.get('/api/trace/:id', (req, res) => {
    res.json(get(String(req.params.id)).summary() satisfies TraceSummary);
  });

  app.post(
    '/api/trace/:id/stop',
    route(async (req, res) => {
      res.json((await get(String(req.params.id)).stop('stopped')) satisfies TraceSummary);
    }),
  );

  app.get('/api/trace/:id/prediction', (req, res) => {
    const s = get(String(req.params.id));
    // ?messages=N: the predicted events of the first N messages only (what a page draws)
    const rawShown = req.query.messages;
    const shown = rawShown === undefined ? undefined : Number(rawShown);
    if (shown !== undefined && (typeof rawShown !== 'string' || !Number.isInteger(shown) || shown < 0))
      throw new HttpError(400, `messages must be an integer >= 0, got ${JSON.stringify(rawShown)}`, 'messages');
    const n = s.opts.messages ?? 1;
    let p: ReturnType<typeof predict>;
    // a node loss asked for, or the one this trace saw: the prediction includes it
    const loss = s.predictedNodeLoss();
    try {
      p = predict(s.design, {
        messages: n,
        publisher: s.publisherSpec.id,
        seed: s.seed,
        overrides: s.opts,
        ...(s.failure ? { failure: s.failure } : {}),
        ...(loss ? { nodeLoss: loss.loss } : {}),
        ...(s.opts.ratePerSecond ? { ratePerSecond: s.opts.ratePerSecond } : {}),
      });
    } catch (err) {
      throw new HttpError(500, `the simulator failed on this design: ${String((err as Error).message).slice(0, 300)}`);
    }
    const actual = s.comparedEvents();
    const comparison =
      s.finalComparison ??
      compareTrace(p.events, actual.events, {
        complete: !s.isRunning && !actual.truncated,
        published: s.summary().published,
        duplicates: s.duplicateIds,
      });
    s.keepFinalComparison(comparison);
    const withEvents = req.query.events !== '0';
    res.json({
      comparison,
      horizon: p.horizon,
      ...(loss ? { nodeLoss: { ...loss.loss, source: loss.source } } : {}),
      ...(p.truncated ? { note: `the prediction covers the first ${MAX_PREDICTED_MESSAGES} messages` } : {}),
      ...(actual.truncated
        ? { note: `the comparison keeps the first ${MAX_COMPARED_EVENTS} live events of those messages` }
        : {}),
      ...(withEvents
        ? { predicted: shown !== undefined ? firstMessages(p.events, shown) : p.events.slice(0, 20_000) }
        : {}),
    } satisfies PredictionResponse);
  });

  app.get('/api/trace/:id/events', streamOriginGuard(), (req, res: Response) => {
    const s = get(String(req.params.id));
    const mine = streams.get(s.traceId) ?? 0;
    if (mine >= streamLimits.perTrace)
      return sendError(
        res,
        429,
        `trace '${s.traceId}' has ${mine} event streams open (at most ${streamLimits.perTrace}): close one first`,
        'id',
      );
    if (streamsOpen >= streamLimits.overall)
      return sendError(
        res,
        429,
        `${streamsOpen} event streams are open (at most ${streamLimits.overall}): close one first`,
      );
    streams.set(s.traceId, mine + 1);
    streamsOpen += 1;
    let counted = true;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      streamsOpen -= 1;
      const n = (streams.get(s.traceId) ?? 1) - 1;
      if (n > 0) streams.set(s.traceId, n);
      else streams.delete(s.traceId);
    };
    // timing=1: each live event's frame carries its delivery time (benches); batch=1: one message per turn (the web app)
    const timing = req.query.timing === '1';
    const batch = req.query.batch === '1';
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.write('retry: 2000\n\n');
    const lastId = Number(req.headers['last-event-id'] ?? 0);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    // set once subscribed (an ended trace's stream ends inside subscribe)
    const held: { sub?: { handle: unknown; unsubscribe: () => void } } = {};
    const onDrain = () => held.sub && s.log.drained(held.sub.handle);
    const close = () => {
      uncount();
      clearInterval(ping);
      held.sub?.unsubscribe();
      res.off('drain', onDrain);
    };
    res.on('drain', onDrain);
    held.sub = s.log.subscribe(
      {
        batch,
        timing,
        write: (chunk) => res.write(chunk),
        ended: () => {
          close();
          res.end();
        },
      },
      Number.isFinite(lastId) ? lastId : 0,
    );
    req.on('close', close);
  });
}
