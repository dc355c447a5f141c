/**
 * Live trace API:
 *   POST /api/trace                 start (design must be deployed at the target)
 *   GET  /api/trace/:id             summary
 *   GET  /api/trace/:id/events      Server-Sent Events (SimEvents; `event: notice` for the rest)
 *   GET  /api/trace/:id/prediction  the simulator's prediction and the first difference
 *   POST /api/trace/:id/stop
 */
import type { Express, Response } from 'express';
import { validateFailureModel, type FailureModel } from '@retry-studio/topology-core/model';
import { predictionAnswer } from '../trace/tracePrediction.js';
import type { TraceSession } from '../trace/traceSession.js';
import type { AppContext } from './appContext.js';
import { brokerUrlFromRequest } from './brokerUrlFromRequest.js';
import { HttpError, sendError } from './httpError.js';
import { rateLimit, type RateLimitOptions } from './rateLimit.js';
import { route } from './route.js';
import { streamOriginGuard } from './safety.js';
import { traceRequest } from '@retry-studio/contract/schemas';
import type { PredictionResponse, TraceSummary } from '@retry-studio/contract';
import { runHeavy, sendJson } from './heavyRoute.js';
import { parseBody } from './parseBody.js';
import { predictionInput } from './predictionInput.js';
import { startTrace } from './startTrace.js';
import { DEFAULT_TRACE_LIMITS, TraceRegistry, type TraceLimits } from './traceRegistry.js';

/** SSE streams: a trace is watched by a tab or two; a client that opens hundreds is refused (429) */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perTrace: 100, overall: 400 };

export interface StreamLimits {
  readonly perTrace: number;
  readonly overall: number;
}

/** `failure` of a trace request: the core's FailureModel, or a 400 naming the field. */
function failureFromRequest(f: unknown): FailureModel | undefined {
  if (f === undefined) return undefined;
  const issue = validateFailureModel(f, 'failure')[0];
  if (issue) throw new HttpError(400, issue.message, issue.path);
  return f as FailureModel;
}

export function registerTraceRoutes(
  app: Express,
  ctx: AppContext,
  limit: RateLimitOptions,
  streamLimits: StreamLimits = DEFAULT_STREAM_LIMITS,
  traceLimits: TraceLimits = DEFAULT_TRACE_LIMITS,
): void {
  const registry = new TraceRegistry<TraceSession>(traceLimits);
  /** open event streams, per trace and in all */
  const streams = new Map<string, number>();
  let streamsOpen = 0;
  app.locals.traces = registry;

  const get = (id: string): TraceSession => {
    const s = registry.get(id);
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
      // the cap is taken before the first await: starts that arrive together cannot all pass it
      const reservation = registry.reserve();
      try {
        res.status(201).json(await startTrace(ctx, req, res, body, { url, failure, reservation }));
      } finally {
        reservation.release(); // a no-op once the trace is registered
      }
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

  app.get(
    '/api/trace/:id/prediction',
    route(async (req, res) => {
      const s = get(String(req.params.id));
      // ?messages=N: the predicted events of the first N messages only (what a page draws)
      const rawShown = req.query.messages;
      const shown = rawShown === undefined ? undefined : Number(rawShown);
      if (shown !== undefined && (typeof rawShown !== 'string' || !Number.isInteger(shown) || shown < 0))
        throw new HttpError(400, `messages must be an integer >= 0, got ${JSON.stringify(rawShown)}`, 'messages');
      const ended = !s.isRunning;
      const input = predictionInput(s, { shown, withEvents: req.query.events !== '0' });
      // a kept comparison without the predicted events needs no simulation: answered here
      const json =
        input.kept !== undefined && !input.withEvents
          ? JSON.stringify(predictionAnswer(input))
          : await runHeavy(ctx, req, res, 'trace-prediction', input);
      // the first comparison of a trace that was over when asked is its final one (its steps are let go)
      if (ended && s.finalComparison === undefined)
        s.keepFinalComparison((JSON.parse(json) as PredictionResponse).comparison);
      sendJson(res, json);
    }),
  );

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
        // a response corks its socket on a write until the tick ends, and a tick of a burst handles a
        // whole socket read of deliveries: the frames would wait for all of them (ms)
        flush: () => {
          const socket = res.socket;
          if (!socket) return false;
          socket.uncork();
          return socket.writableLength === 0;
        },
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
