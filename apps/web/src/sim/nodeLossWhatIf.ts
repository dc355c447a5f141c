/**
 * "What if a node goes down": the simulation bar's node loss, as the user sets it, turned into
 * the core's NodeLoss for a run, and the windows during which each queue delivers nothing (for
 * the canvas and the budget). The rule itself (quorum: until a new leader; classic: until the
 * node is back) is the core's outagesOf; only the choice of queues is made here.
 */
import type { DeployPlan as Plan } from '@retry-studio/contract';
import { type Design } from '@retry-studio/topology-core/model';
import {
  DEFAULT_LEADER_MOVE_MS,
  outagesOf,
  profileFor,
  queueConfig,
  type NodeLoss,
} from '@retry-studio/topology-core/sim';

/**
 * design queue -> its leader (quorum, stream) or node (classic), from a plan of the deployed
 * design (only queues that exist: `actual`); undefined when the plan knows none (one broker, not deployed).
 */
export function queueHomes(plan: Plan): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const i of plan.items) {
    if (i.kind !== 'queue' || i.placement?.source !== 'actual') continue;
    const home = i.placement.leader ?? (i.placement.members.length === 1 ? i.placement.members[0] : undefined);
    if (home) out[i.designName] = home;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export interface NodeLossDraft {
  readonly node: string;
  readonly atMs: number;
  readonly downMs: number;
  readonly leaderMovesAfterMs: number;
  /** 'placement': the queues the deploy plan shows on the node (every queue when no plan is known); or a chosen list */
  readonly queues: 'placement' | readonly string[];
}

export const DEFAULT_NODE_LOSS: NodeLossDraft = {
  node: 'rabbit-2@cluster',
  atMs: 1000,
  downMs: 30_000,
  leaderMovesAfterMs: DEFAULT_LEADER_MOVE_MS,
  queues: 'placement',
};

/**
 * The queues the lost node leads (quorum) or holds (classic). `placement`: design queue -> its
 * leader or node, from the plan of a deployed design; queues absent from it count as on the node.
 */
export function queuesOnNode(
  draft: NodeLossDraft,
  design: Design,
  placement: Readonly<Record<string, string>> | undefined,
): string[] {
  const names = design.topology.queues.map((q) => q.name);
  if (draft.queues !== 'placement') return names.filter((n) => draft.queues.includes(n));
  if (!placement || Object.keys(placement).length === 0) return names;
  return names.filter((n) => placement[n] === undefined || placement[n] === draft.node);
}

export function resolveNodeLoss(
  draft: NodeLossDraft,
  design: Design,
  placement?: Readonly<Record<string, string>>,
): NodeLoss {
  return {
    node: draft.node,
    atMs: draft.atMs,
    downMs: draft.downMs,
    leaderMovesAfterMs: draft.leaderMovesAfterMs,
    queues: queuesOnNode(draft, design, placement),
  };
}

export interface QueueOutage {
  readonly queue: string;
  readonly quorum: boolean;
  readonly fromMs: number;
  readonly untilMs: number;
}

/** Each affected queue's unavailable window, by its type (with the design's policies applied). */
export function outagesFor(loss: NodeLoss, design: Design): QueueOutage[] {
  const profile = profileFor(design.profile);
  const quorum = new Map(
    design.topology.queues.map((q) => [q.name, queueConfig(q, design.topology.policies, profile).quorum]),
  );
  return [...outagesOf(loss, (q) => quorum.get(q) === true)].map(([queue, o]) => ({
    queue,
    quorum: quorum.get(queue) === true,
    fromMs: o.fromMs,
    untilMs: o.untilMs,
  }));
}

/** The queues unavailable at virtual time `t`. */
export function unavailableAt(outages: readonly QueueOutage[], t: number): Set<string> {
  return new Set(outages.filter((o) => t >= o.fromMs && t < o.untilMs).map((o) => o.queue));
}
