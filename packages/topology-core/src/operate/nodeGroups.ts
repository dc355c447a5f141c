/**
 * A big design's nodes in groups a person can read: leaves of at most a few dozen nodes, named by
 * the longest name prefix they share (`svc-0001`: `svc-0001.main`, `.wait`, `.retry`, `.dlq`,
 * `.parking` and their workers), and clusters of leaves that the overview labels at its opening zoom
 * (a prefix, or a run of consecutive leaves, `svc-0001 … svc-0040`). Grouping by the first segment
 * alone put issue 41's 1,000 retry groups in one group, `svc`, and the overview read "app · 0 queues".
 */
import type { Design } from '../model/design.js';
import { consumerNodeId, exchangeNodeId, publisherNodeId, queueNodeId, type NodeId } from '../model/nodeIds.js';

/** a leaf larger than this is cut by its names' next segment (when that makes groups, not singletons) */
export const LEAF_MAX_NODES = 48;
/**
 * About this many clusters: what an opening view has room to label (a dozen frames of a few hundred px
 * in a laptop's canvas). A prefix with more leaves than its share is cut into runs; more than twice as
 * many prefixes are joined into runs.
 */
export const CLUSTER_TARGET = 12;
/** a prefix of up to this many leaves stays one cluster */
const CLUSTER_LEAVES = 32;

const SEPARATOR = /[.\-_:]/;

/** the name's first `n` segments, with the separators between them (`svc-0001.main`, 2 -> `svc-0001`) */
export function namePrefixOf(name: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n; i++) {
    const rest = name.slice(at + (i > 0 ? 1 : 0));
    const j = rest.search(SEPARATOR);
    if (j <= 0) return name;
    at += (i > 0 ? 1 : 0) + j;
  }
  return name.slice(0, at);
}

export interface LeafGroup {
  /** the prefix its names share */
  readonly key: string;
  readonly nodes: readonly NodeId[];
  readonly queues: number;
}

export interface NodeCluster {
  /** what the overview labels it: a prefix, or a run `first … last` */
  readonly key: string;
  readonly leaves: readonly LeafGroup[];
  readonly queues: number;
}

interface Named {
  id: NodeId;
  name: string;
  queue: boolean;
}

/**
 * Each node with the name it is grouped by: consumers follow their queue, publishers their exchange (or, on
 * the default exchange, their queue); the publishers of an exchange that has too many for one group follow
 * their routing key (a topic exchange with a publisher per retry group: each goes with its group).
 */
function namedNodes(design: Pick<Design, 'topology' | 'consumers' | 'publishers'>): Named[] {
  const perExchange = new Map<string, number>();
  for (const p of design.publishers) perExchange.set(p.exchange, (perExchange.get(p.exchange) ?? 0) + 1);
  const publisherName = (p: Design['publishers'][number]) =>
    !p.exchange || ((perExchange.get(p.exchange) ?? 0) > LEAF_MAX_NODES && p.routingKey) ? p.routingKey : p.exchange;
  return [
    ...design.publishers.map((p) => ({ id: publisherNodeId(p.id), name: publisherName(p), queue: false })),
    ...design.topology.exchanges.map((x) => ({ id: exchangeNodeId(x.name), name: x.name, queue: false })),
    ...design.topology.queues.map((q) => ({ id: queueNodeId(q.name), name: q.name, queue: true })),
    ...design.consumers.map((c) => ({ id: consumerNodeId(c.id), name: c.queue, queue: false })),
  ];
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function split(nodes: readonly Named[], depth: number): Map<string, Named[]> {
  const m = new Map<string, Named[]>();
  for (const n of nodes) {
    const k = namePrefixOf(n.name, depth);
    const g = m.get(k);
    if (g) g.push(n);
    else m.set(k, [n]);
  }
  return m;
}

/** a group cut by deeper prefixes while it is too big and the cut makes groups of three and more on average */
function leavesOf(key: string, nodes: Named[], depth: number, out: LeafGroup[]): void {
  const deepest = Math.max(...nodes.map((n) => n.name.split(SEPARATOR).length));
  if (nodes.length > LEAF_MAX_NODES)
    for (let d = depth + 1; d <= deepest; d++) {
      const parts = split(nodes, d);
      if (parts.size === 1) continue;
      if (parts.size * 3 > nodes.length) break;
      for (const [k, ns] of [...parts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) leavesOf(k, ns, d, out);
      return;
    }
  out.push({ key, nodes: nodes.map((n) => n.id), queues: nodes.filter((n) => n.queue).length });
}

/** consecutive items in runs of at most `max` (as even as can be), each a cluster named for its ends */
function runs<T extends { key: string }>(
  items: readonly T[],
  max: number,
  leaves: (t: T) => readonly LeafGroup[],
): NodeCluster[] {
  const n = Math.ceil(items.length / max);
  const per = Math.ceil(items.length / n);
  const out: NodeCluster[] = [];
  for (let i = 0; i < items.length; i += per) {
    const run = items.slice(i, i + per);
    const ls = run.flatMap(leaves);
    const key = run.length === 1 ? run[0]!.key : `${run[0]!.key} … ${run[run.length - 1]!.key}`;
    out.push({ key, leaves: ls, queues: ls.reduce((s, l) => s + l.queues, 0) });
  }
  return out;
}

/** The design's nodes as clusters of leaf groups, in name order. */
export function clusterNodes(design: Pick<Design, 'topology' | 'consumers' | 'publishers'>): NodeCluster[] {
  const top = split(namedNodes(design), 1);
  const prefixes: NodeCluster[] = [];
  for (const [key, nodes] of [...top].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const leaves: LeafGroup[] = [];
    leavesOf(key, nodes, 1, leaves);
    leaves.sort(byKey);
    prefixes.push({ key, leaves, queues: leaves.reduce((s, l) => s + l.queues, 0) });
  }
  // many prefixes (a thousand services named apart): joined into runs
  if (prefixes.length > 2 * CLUSTER_TARGET)
    return runs(prefixes, Math.ceil(prefixes.length / CLUSTER_TARGET), (c) => c.leaves);
  const total = prefixes.reduce((s, c) => s + c.leaves.length, 0);
  return prefixes.flatMap((c) => {
    if (c.leaves.length <= CLUSTER_LEAVES) return [c];
    const share = Math.max(1, Math.round((CLUSTER_TARGET * c.leaves.length) / total));
    return runs(c.leaves, Math.ceil(c.leaves.length / share), (l) => [l]);
  });
}
