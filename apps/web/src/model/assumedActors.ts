/**
 * Which of a design's actors are the import's stand-ins: exactly what the core's one assumption about a
 * consumer-less topology gives (lint/assumedConsumers.ts: a publisher per way into each entry exchange or
 * unbound queue, a worker per work queue). The canvas folds the assumed publishers into the node they
 * publish to (a tab on its left: "✉ 9") and draws an assumed worker with a short name: a real 12-queue
 * file's eleven scaffolded publishers ("to published_documents (x.bulk.search_api_v2_sync)") took a column
 * and set the opening zoom, its names 5.5 px on screen. An actor the user edits is theirs: it no longer
 * equals the assumption and is drawn as a node of its own again.
 */
import { assumedConsumers, assumedPublishers } from '@retry-studio/topology-core/lint';
import type { ConsumerSpec, Design, PublisherSpec } from '@retry-studio/topology-core/model';
import { exchangeNodeId, parseNodeId, queueNodeId } from './nodeIds';
import { LAYERED_MAX_NODES, nodeCount } from './designSize';

export interface AssumedActors {
  /** an assumed publisher's id -> the node it is folded into (its exchange's, or its queue's through the default exchange) */
  readonly foldedInto: ReadonlyMap<string, string>;
  /** node id -> the assumed publishers folded into it, in the design's order */
  readonly byNode: ReadonlyMap<string, readonly PublisherSpec[]>;
  /** ids of the consumers that are the assumption's workers */
  readonly workers: ReadonlySet<string>;
}

const NONE: AssumedActors = { foldedInto: new Map(), byNode: new Map(), workers: new Set() };

/** one reading per design's actors and topology: the canvas maps nodes on every edit and selection */
const memo = new WeakMap<object, { topology: object; consumers: object; value: AssumedActors }>();

/** Where a publisher's messages go on the canvas: its exchange, or (default exchange) the queue named by its key. */
function targetNode(design: Design, p: PublisherSpec): string | undefined {
  if (p.exchange)
    return design.topology.exchanges.some((x) => x.name === p.exchange) ? exchangeNodeId(p.exchange) : undefined;
  return design.topology.queues.some((q) => q.name === p.routingKey) ? queueNodeId(p.routingKey) : undefined;
}

/** the same actor, whatever order its keys were written in (a design read back from a file or IndexedDB) */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export function assumedActorsOf(design: Design): AssumedActors {
  const hit = memo.get(design.publishers);
  if (hit && hit.topology === design.topology && hit.consumers === design.consumers) return hit.value;
  const value = read(design);
  memo.set(design.publishers, { topology: design.topology, consumers: design.consumers, value });
  return value;
}

function read(design: Design): AssumedActors {
  // a design past the layered layout's size keeps every node in its place (and the reading would cost 0.2 s at 10,000)
  if ((design.publishers.length === 0 && design.consumers.length === 0) || nodeCount(design) > LAYERED_MAX_NODES)
    return NONE;
  const assumed = assumedConsumers(design.topology);
  const publishers = new Map<string, PublisherSpec>(assumedPublishers(design.topology, assumed).map((p) => [p.id, p]));
  const workers = new Map<string, ConsumerSpec>(assumed.consumers.map((c) => [c.id, c]));
  const foldedInto = new Map<string, string>();
  const byNode = new Map<string, PublisherSpec[]>();
  for (const p of design.publishers) {
    const a = publishers.get(p.id);
    const into = a && same(a, p) ? targetNode(design, p) : undefined;
    if (!into) continue;
    foldedInto.set(p.id, into);
    const list = byNode.get(into);
    if (list) list.push(p);
    else byNode.set(into, [p]);
  }
  const assumedWorkers = new Set<string>();
  for (const c of design.consumers) {
    const a = workers.get(c.id);
    if (a && same(a, c)) assumedWorkers.add(c.id);
  }
  if (foldedInto.size === 0 && assumedWorkers.size === 0) return NONE;
  return { foldedInto, byNode, workers: assumedWorkers };
}

/** The node a design's node id is drawn as: an assumed publisher's is the node it is folded into. */
export function drawnNodeId(actors: AssumedActors, id: string): string {
  const n = parseNodeId(id);
  return (n?.kind === 'publisher' && actors.foldedInto.get(n.key)) || id;
}
