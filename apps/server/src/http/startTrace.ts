/**
 * POST /api/trace's start, once its slot under the cap is reserved (traceRegistry.ts): the design
 * read, its deployment claimed (no await between the check and the claim), the deployment checked
 * on the broker, the trace's own connection (`retry-studio:trace:<id>` on the broker), and the
 * trace started and registered. Whatever fails on the way frees the slot and the deployment.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { TraceStart } from '@retry-studio/contract';
import type { traceRequest } from '@retry-studio/contract/schemas';
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import { parseNodeLoss, type NodeLoss } from '@retry-studio/topology-core/sim';
import { nameList } from '@retry-studio/topology-core/text';
import { redactUrl, type AmqpUrl } from '../broker/index.js';
import { TraceSession } from '../trace/traceSession.js';
import type { AppContext } from './appContext.js';
import { brokerFailure } from './brokerFailure.js';
import { checkPrefixedNames, designOffLoop } from './designInput.js';
import { HttpError } from './httpError.js';
import type { TraceReservation } from './traceRegistry.js';

/** `nodeLoss` of a trace request: the core's NodeLoss on the design's queues, or a 400 naming the field. */
function nodeLossFromRequest(x: unknown, design: Design): NodeLoss | undefined {
  if (x === undefined) return undefined;
  const r = parseNodeLoss(x, new Set(design.topology.queues.map((q) => q.name)));
  if ('message' in r) throw new HttpError(400, r.message, r.path);
  return r.loss;
}

/** the request's body as the contract's schema parsed it */
export type TraceBody = z.output<typeof traceRequest>;

export interface TraceStartInput {
  readonly url: AmqpUrl;
  readonly failure: FailureModel | undefined;
  readonly reservation: TraceReservation<TraceSession>;
}

export async function startTrace(
  ctx: AppContext,
  req: Request,
  res: Response,
  body: TraceBody,
  { url, failure, reservation }: TraceStartInput,
): Promise<TraceStart> {
  const { design } = await designOffLoop(ctx, req, res, body.design);
  const nodeLoss = nodeLossFromRequest(body.nodeLoss, design);
  const target = ctx.deploy.target(design, url, body);
  checkPrefixedNames(design, target.prefix);
  if (body.publisher !== undefined && !design.publishers.some((p) => p.id === body.publisher))
    throw new HttpError(400, `no publisher '${body.publisher}' in the design`, 'publisher');
  if (design.publishers.length === 0)
    throw new HttpError(400, 'the design has no publisher to publish test messages from', 'design.publishers');
  // one trace per deployment, claimed before the next await
  reservation.claim({ broker: redactUrl(url), vhost: target.vhost, prefix: target.prefix });
  const { plan } = await ctx.deploy.plan(design, url, target, body.managementUrl).catch(brokerFailure('trace'));
  // a missing binding is a deployment the broker changed: traced as the broker routes (a difference from the prediction)
  const missing = plan.items.filter(
    (i) => i.kind !== 'binding' && (i.status === 'create' || i.status === 'unsupported'),
  );
  const missingBindings = plan.items.filter((i) => i.kind === 'binding' && i.status === 'create').map((i) => i.name);
  if (missing.length > 0)
    throw new HttpError(
      409,
      `the design is not deployed at vhost '${target.vhost}' prefix '${target.prefix}': ${missing.length} object(s) missing (${nameList(missing.map((m) => m.name))}); deploy it first`,
      'design',
      { missing: missing.map((m) => ({ kind: m.kind, name: m.name, status: m.status })) },
    );
  const mgmt = await ctx.brokers.management(url, body.managementUrl).catch(brokerFailure('trace'));
  // the trace's own connection lives as long as the trace: released (and closed when idle) once it ends
  const lease = await ctx.brokers.lease(url, target.vhost, 'trace', reservation.traceId).catch((err: Error) => {
    throw new HttpError(502, err.message, 'broker');
  });
  let session: TraceSession;
  try {
    session = new TraceSession(design, target, lease.conn, mgmt, redactUrl(url), {
      traceId: reservation.traceId,
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
  } catch (err) {
    lease.release();
    throw err;
  }
  void session.done().finally(() => lease.release());
  // registered before it starts: its events stream and its summary answer while it attaches
  reservation.register(session);
  await session.start().catch(async (err: Error) => {
    await session.stop('failed');
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
  return {
    id: session.traceId,
    broker: redactUrl(url),
    target,
    events: `/api/trace/${session.traceId}/events`,
    prediction: `/api/trace/${session.traceId}/prediction`,
    ...(warnings.length ? { warning: warnings.join('; ') } : {}),
  };
}
