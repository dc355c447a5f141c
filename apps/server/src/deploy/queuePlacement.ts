/**
 * Where a queue's messages live in the cluster, for the plan: its type, how many replicas and
 * which node leads. An existing queue reports its own (`members`, `leader`, `online`, or `node`
 * for a classic queue); a queue to create gets what RabbitMQ will give it: a quorum queue one
 * member per running node up to `x-quorum-initial-group-size`, a stream up to
 * `x-initial-cluster-size`, a classic queue one copy on the node the deploy connects to
 * (queue-leader-locator client-local, the default).
 */
import { queueTypeOf, type AmqpTable } from '@retry-studio/topology-core/model';
import type { ClusterView } from '../broker/cluster.js';
import type { MgmtQueue } from '../broker/management.js';
import type { PlacedQueueType, QueuePlacement } from '@retry-studio/contract';

/** the wire types are the contract's (the plan sends them to the web) */
export type { PlacedQueueType, QueuePlacement } from '@retry-studio/contract';

export function actualPlacement(q: MgmtQueue): QueuePlacement {
  const type: PlacedQueueType = q.type === 'quorum' || q.type === 'stream' ? q.type : 'classic';
  const members = q.members ?? (q.node ? [q.node] : []);
  const leader = q.leader ?? q.node;
  return {
    type,
    source: 'actual',
    replicas: members.length,
    members,
    ...(leader ? { leader } : {}),
    ...(q.online ? { online: q.online } : {}),
  };
}

/** `node`: the node the deploy's connection is on (a classic queue is declared there). */
export function expectedPlacement(args: AmqpTable, cluster: ClusterView, node: string | undefined): QueuePlacement {
  const type: PlacedQueueType = args['x-queue-type'] === 'stream' ? 'stream' : queueTypeOf(args);
  const running = cluster.nodes.filter((n) => n.running).map((n) => n.name);
  if (type === 'classic')
    return { type, source: 'expected', replicas: 1, members: node ? [node] : [], ...(node ? { leader: node } : {}) };
  const sizeArg = args[type === 'quorum' ? 'x-quorum-initial-group-size' : 'x-initial-cluster-size'];
  const size = typeof sizeArg === 'number' && sizeArg > 0 ? Math.min(sizeArg, running.length) : running.length;
  // RabbitMQ picks which running nodes when size < running; the list is the candidates then
  return { type, source: 'expected', replicas: size, members: running };
}
