/**
 * A cluster node lost for a while, as the simulator sees it: the queues led by (quorum) or
 * living on (classic) that node stop delivering. A quorum queue elects a new leader among the
 * other members after `leaderMovesAfterMs` (a graceful stop hands over almost at once, a crash
 * waits for the election timeout) and goes on; a classic queue has one copy, so it is
 * unavailable until the node returns. Messages routed to it meanwhile stay in it, not lost:
 * they are delivered once it is available again.
 */
import type { QueueState } from './queueState.js';
import type { SimState } from './simState.js';

export interface NodeLoss {
  /** the node's name, for the reader (e.g. rabbit-c2@host) */
  readonly node: string;
  /** virtual ms at which the node goes down */
  readonly atMs: number;
  /** how long it stays down */
  readonly downMs: number;
  /** how long a quorum queue it led takes to have a new leader */
  readonly leaderMovesAfterMs: number;
  /** the queues led by (quorum) or living on (classic) this node */
  readonly queues: readonly string[];
}

/** One queue's unavailable window [fromMs, untilMs), and whether its wake-up is scheduled. */
export interface Outage {
  readonly fromMs: number;
  readonly untilMs: number;
  resumeScheduled: boolean;
}

/** Each affected queue's window, by its type (quorum queues: until a new leader; classic: until the node returns). */
export function outagesOf(loss: NodeLoss | undefined, isQuorum: (queue: string) => boolean): Map<string, Outage> {
  const out = new Map<string, Outage>();
  if (!loss) return out;
  for (const q of loss.queues) {
    const lasts = isQuorum(q) ? Math.min(loss.leaderMovesAfterMs, loss.downMs) : loss.downMs;
    out.set(q, { fromMs: loss.atMs, untilMs: loss.atMs + lasts, resumeScheduled: false });
  }
  return out;
}

/** When `q` is unavailable at `t`: the time it becomes available again; otherwise undefined. */
export function unavailableUntil(outages: ReadonlyMap<string, Outage>, q: QueueState, t: number): number | undefined {
  const o = outages.get(q.cfg.name);
  return o && t >= o.fromMs && t < o.untilMs ? o.untilMs : undefined;
}

/**
 * The leader-move delay to assume when none is known. On the test cluster (graceful stop_app, as
 * in a rolling restart; trace.cluster.integration.test.ts) the management API showed a new leader
 * 1.0 to 4.2 s after stop_app began, while the trace's longest pause between events was well
 * under that: leadership is handed over before the node stops. 1 s is the round middle for
 * a graceful stop; a crash waits for the election timeout and should be given explicitly.
 */
export const DEFAULT_LEADER_MOVE_MS = 1000;

/**
 * A node loss given as data (a trace request's `nodeLoss`, a saved what-if): its shape, then
 * checkNodeLoss. The first issue with its path, or the NodeLoss.
 */
export function parseNodeLoss(
  x: unknown,
  queueNames: ReadonlySet<string>,
  path = 'nodeLoss',
): { path: string; message: string } | { loss: NodeLoss } {
  if (typeof x !== 'object' || x === null || Array.isArray(x))
    return { path, message: 'nodeLoss must be an object { node, atMs, downMs, leaderMovesAfterMs?, queues }' };
  const o = x as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !['node', 'atMs', 'downMs', 'leaderMovesAfterMs', 'queues'].includes(k));
  if (unknown.length > 0) return { path: `${path}.${unknown[0]}`, message: `unknown field '${unknown[0]}'` };
  if (typeof o.node !== 'string' || o.node === '' || o.node.length > 255)
    return { path: `${path}.node`, message: 'node must be a node name (1 to 255 characters)' };
  for (const k of ['atMs', 'downMs', 'leaderMovesAfterMs'] as const)
    if (o[k] !== undefined && typeof o[k] !== 'number')
      return { path: `${path}.${k}`, message: `${k} must be a number of ms >= 0, got ${JSON.stringify(o[k])}` };
  if (!Array.isArray(o.queues) || o.queues.length > 10_000)
    return { path: `${path}.queues`, message: 'queues must be an array of queue names' };
  const bad = o.queues.findIndex((q) => typeof q !== 'string');
  if (bad >= 0) return { path: `${path}.queues[${bad}]`, message: 'a queue name must be a string' };
  const loss: NodeLoss = {
    node: o.node,
    atMs: o.atMs as number,
    downMs: o.downMs as number,
    leaderMovesAfterMs: (o.leaderMovesAfterMs as number | undefined) ?? DEFAULT_LEADER_MOVE_MS,
    queues: o.queues as string[],
  };
  const issue = checkNodeLoss(loss, queueNames);
  return issue ? { path: issue.path.replace(/^nodeLoss/, path), message: issue.message } : { loss };
}

/** Validation of the input's `nodeLoss` against the topology: the path and what is wrong. */
export function checkNodeLoss(
  loss: NodeLoss,
  queueNames: ReadonlySet<string>,
): { path: string; message: string } | undefined {
  for (const k of ['atMs', 'downMs', 'leaderMovesAfterMs'] as const)
    if (!Number.isFinite(loss[k]) || loss[k] < 0)
      return { path: `nodeLoss.${k}`, message: `${k} must be a number of ms >= 0, got ${String(loss[k])}` };
  const i = loss.queues.findIndex((q) => !queueNames.has(q));
  if (i >= 0) return { path: `nodeLoss.queues[${i}]`, message: `no queue '${loss.queues[i]}' in the topology` };
  return undefined;
}

/** True while `q` is unavailable: it delivers nothing, and is woken up (once) when it is back. */
export function pausedByNodeLoss(sim: SimState, q: QueueState): boolean {
  const until = unavailableUntil(sim.outages, q, sim.t);
  if (until === undefined) return false;
  const o = sim.outages.get(q.cfg.name)!;
  if (!o.resumeScheduled) {
    o.resumeScheduled = true;
    sim.heap.push(until, { k: 'node-back', q });
  }
  return true;
}
