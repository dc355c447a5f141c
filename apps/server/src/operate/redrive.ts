/**
 * Re-drive entry points shared by the HTTP routes and the CLI: the dry run (browse + the core's
 * plan, nothing moves) and starting a job (one per queue at a time).
 */
import type { ChannelModel } from 'amqplib';
import {
  browseEffect,
  checkEditInPlan,
  headerNameProblem,
  isEmptyEdit,
  planRedrive,
  predictBounce,
  type BounceWarning,
  queueKindOf,
  redriveContext,
  routingTopology,
  type RedriveContext,
  type RedriveEdit,
  type RedriveFilter,
  type RedrivePlan,
  type RedriveTarget,
} from '@retry-studio/topology-core/operate';
import { withThrowawayChannel } from '../broker/index.js';
import { browseQueue, MAX_BROWSE, type BrowseResult } from './browse.js';
import { OperateError, brokerVersion, exactDepth, queueInfo, type OperateTarget } from './operateTarget.js';
import { readSnapshot } from './readSnapshot.js';
import { RedriveJob, type RedriveOptions } from './redriveJob.js';

export interface RedriveRequest {
  readonly queue: string;
  readonly target: RedriveTarget;
  readonly filter?: RedriveFilter;
  readonly limit?: number;
  readonly ratePerSecond?: number;
  /** a quorum queue before 4.3: every message left in the queue counts toward its delivery limit */
  readonly insist?: boolean;
  /** fix, then retry: a JSON patch on each body, headers set on each copy */
  readonly edit?: RedriveEdit;
}

function checkNumbers(r: RedriveRequest): void {
  if (r.limit !== undefined && (!Number.isInteger(r.limit) || r.limit < 1))
    throw new OperateError(`limit must be a positive integer, got ${r.limit}`, 'limit');
  if (r.ratePerSecond !== undefined && !(r.ratePerSecond > 0 && Number.isFinite(r.ratePerSecond)))
    throw new OperateError(`rate must be a positive number of messages per second, got ${r.ratePerSecond}`, 'rate');
  for (const name of Object.keys(r.edit?.setHeaders ?? {})) {
    const problem = headerNameProblem(name);
    if (problem) throw new OperateError(problem, 'set-header');
  }
}

export async function liveRedriveContext(t: OperateTarget): Promise<RedriveContext> {
  const [snap, version] = await Promise.all([readSnapshot(t), brokerVersion(t)]);
  return redriveContext(routingTopology(snap), version);
}

/**
 * Where each listed message would go; reads the queue as browse does (same effect), moves
 * nothing. `bounce`: what would come back or stay stuck at the destinations (their TTL, length
 * limit and consumers now), said before anything moves.
 */
export async function dryRunRedrive(
  t: OperateTarget,
  conn: ChannelModel,
  r: RedriveRequest,
): Promise<{ browse: BrowseResult; plan: RedrivePlan; bounce: BounceWarning[] }> {
  checkNumbers(r);
  await queueInfo(t, r.queue);
  const want = Math.max(1, Math.min(MAX_BROWSE, await exactDepth(conn, r.queue)));
  const browse = await browseQueue(t, conn, { queue: r.queue, limit: want, ...(r.insist ? { insist: true } : {}) });
  const [snap, version] = await Promise.all([readSnapshot(t), brokerVersion(t)]);
  const topology = routingTopology(snap);
  const ctx = redriveContext(topology, version);
  // with an edit: a message the patch cannot apply to (a plain-text body) stays, and the plan says so
  const plan = checkEditInPlan(
    planRedrive(
      {
        messages: browse.messages,
        target: r.target,
        ...(r.filter ? { filter: r.filter } : {}),
        ...(r.limit !== undefined ? { limit: r.limit } : {}),
      },
      ctx,
    ),
    browse.messages,
    r.edit,
  );
  const destinations = [...new Set(plan.items.flatMap((i) => (i.decision.kind === 'move' ? i.decision.queues : [])))];
  // a passive declare: exact depth and consumers now (the management API's lag a stats interval)
  const live = await Promise.all(
    destinations.map(async (name) => {
      const ok = await withThrowawayChannel(conn, (ch) => ch.checkQueue(name)).catch(() => undefined);
      return ok ? { name, depth: ok.messageCount, consumers: ok.consumerCount } : { name };
    }),
  );
  return { browse, plan, bounce: predictBounce(plan, topology, live, r.queue, ctx) };
}

/** Running jobs by broker + vhost + queue: only one re-drive at a time per queue. */
const running = new Map<string, RedriveJob>();

export function runningRedrive(t: OperateTarget, queue: string): RedriveJob | undefined {
  return running.get(`${t.management.baseUrl}|${t.vhost}|${queue}`);
}

/** Job tuning the API does not expose (tests, benches). */
export type RedriveTuning = Pick<RedriveOptions, 'window' | 'idleMs' | 'reconnectMs' | 'proveAcks'>;

/** Starts a re-drive on connections of its own (consume side and publish side), see RedriveJob. */
export async function startRedrive(
  t: OperateTarget,
  r: RedriveRequest,
  tuning: RedriveTuning = {},
): Promise<RedriveJob> {
  checkNumbers(r);
  const key = `${t.management.baseUrl}|${t.vhost}|${r.queue}`;
  const other = running.get(key);
  if (other?.isRunning)
    throw new OperateError(`re-drive ${other.id} of '${r.queue}' is still running: cancel it or wait`, 'queue', 409);
  const [info, version] = await Promise.all([queueInfo(t, r.queue), brokerVersion(t)]);
  const effect = browseEffect(queueKindOf(info.type, info.arguments), version);
  if (effect.kind === 'none')
    throw new OperateError(
      `'${r.queue}' is a stream: messages cannot be removed from it, so they cannot be moved (re-drive to a queue reads and copies; use a classic or quorum dead-letter queue)`,
      'queue',
      409,
    );
  if (effect.refuseUnlessInsist && !r.insist)
    throw new OperateError(
      `not re-driving '${r.queue}' without --insist: messages the re-drive leaves are returned, and ${effect.message}`,
      'insist',
      409,
    );
  const job = new RedriveJob(t.url, await liveRedriveContext(t), {
    ...tuning,
    queue: r.queue,
    target: r.target,
    username: t.url.username,
    ...(r.filter ? { filter: r.filter } : {}),
    ...(r.limit !== undefined ? { limit: r.limit } : {}),
    ...(r.ratePerSecond !== undefined ? { ratePerSecond: r.ratePerSecond } : {}),
    ...(r.edit && !isEmptyEdit(r.edit) ? { edit: r.edit } : {}),
  });
  running.set(key, job);
  try {
    await job.start();
  } catch (err) {
    running.delete(key);
    const msg = (err as Error).message ?? String(err);
    if (/ACCESS_REFUSED|exclusive/i.test(msg))
      throw new OperateError(
        `'${r.queue}' has another consumer (or another re-drive runs on it): stop it first`,
        'queue',
        409,
      );
    throw err;
  }
  void job.done.finally(() => {
    if (running.get(key) === job) running.delete(key);
  });
  return job;
}
