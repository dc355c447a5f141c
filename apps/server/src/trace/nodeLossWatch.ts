/**
 * A node loss as a live trace sees it on a cluster, turned into the simulator's NodeLoss so the
 * prediction can be run again with what happened (prediction.ts): which node stopped and when,
 * which of the design's queues it led (quorum) or held (classic) just before, when their leaders
 * were seen elsewhere, and when the node ran again. Fed by polls of the management API
 * (GET /api/nodes and each queue's leader/node), so every time is known to one poll interval.
 * Only the first node loss of a trace is kept: the simulator models one.
 */
import { DEFAULT_LEADER_MOVE_MS } from '@retry-studio/topology-core/sim';
import type { ObservedNodeLoss } from '@retry-studio/contract';

/** a leader seen elsewhere this long with every node running was moved on purpose (a rebalance), not by a stop */
const REBALANCED_AFTER_MS = 10_000;

export interface PolledQueue {
  /** the design's name */
  readonly name: string;
  readonly quorum: boolean;
  /** a quorum queue's leader, a classic queue's node; undefined when it could not be read */
  readonly home: string | undefined;
}

/** the simulator's NodeLoss with the observed times (the contract's, a trace summary carries it) */
export type { ObservedNodeLoss };

export class NodeLossWatch {
  private readonly homes = new Map<string, string>();
  private readonly running = new Map<string, boolean>();
  /** when a queue was first seen led from elsewhere than its home (a graceful stop hands leadership over before the node reports stopped) */
  private readonly movedAway = new Map<string, number>();
  private lost:
    { node: string; atMs: number; queues: PolledQueue[]; movedAt: Map<string, number>; backAtMs?: number } | undefined;

  /** One poll at trace time `t`: the nodes and whether they run, and each queue's home. */
  observe(t: number, nodes: readonly { name: string; running: boolean }[], queues: readonly PolledQueue[]): void {
    if (!this.lost) {
      for (const q of queues)
        if (
          q.home !== undefined &&
          this.homes.has(q.name) &&
          q.home !== this.homes.get(q.name) &&
          !this.movedAway.has(q.name)
        )
          this.movedAway.set(q.name, t);
      const down = nodes.find((n) => !n.running && this.running.get(n.name) === true);
      if (down) {
        const on = queues.filter((q) => this.homes.get(q.name) === down.name);
        const movedAt = new Map(
          on.flatMap((q) =>
            q.quorum && this.movedAway.has(q.name) ? [[q.name, this.movedAway.get(q.name)!] as const] : [],
          ),
        );
        this.lost = { node: down.name, atMs: Math.min(t, ...movedAt.values()), queues: on, movedAt };
      }
    }
    for (const n of nodes) this.running.set(n.name, n.running);
    const l = this.lost;
    if (l) {
      for (const q of l.queues)
        if (q.quorum && !l.movedAt.has(q.name) && this.moved(q.name, queues, l.node)) l.movedAt.set(q.name, t);
      if (l.backAtMs === undefined && nodes.some((n) => n.name === l.node && n.running)) l.backAtMs = t;
    }
    // a home is remembered only while every node runs: the placement the loss starts from
    // (a move while every node runs is a handover before a stop, or a rebalance once it lasts)
    if (!this.lost && nodes.every((n) => n.running))
      for (const q of queues) {
        if (!q.home) continue;
        const moved = this.movedAway.get(q.name);
        if (
          this.homes.has(q.name) &&
          q.home !== this.homes.get(q.name) &&
          (moved === undefined || t - moved < REBALANCED_AFTER_MS)
        )
          continue;
        this.homes.set(q.name, q.home);
        this.movedAway.delete(q.name);
      }
  }

  private moved(name: string, queues: readonly PolledQueue[], from: string): boolean {
    const home = queues.find((q) => q.name === name)?.home;
    return home !== undefined && home !== from;
  }

  /** a node went down during the trace */
  get seen(): boolean {
    return this.lost !== undefined;
  }

  /** The loss as the simulator takes it, with the observed times; undefined when no node went down. */
  loss(endMs: number): ObservedNodeLoss | undefined {
    const l = this.lost;
    if (!l) return undefined;
    // the model has one delay for every queue: the slowest move seen (a queue idle meanwhile may show its new leader late)
    const moved = [...l.movedAt.values()];
    return {
      node: l.node,
      atMs: l.atMs,
      downMs: (l.backAtMs ?? endMs) - l.atMs,
      leaderMovesAfterMs: moved.length > 0 ? Math.max(...moved) - l.atMs : DEFAULT_LEADER_MOVE_MS,
      queues: l.queues.map((q) => q.name),
      leadersMovedAtMs: Object.fromEntries(l.movedAt),
      ...(l.backAtMs !== undefined ? { backAtMs: l.backAtMs } : {}),
    };
  }
}
