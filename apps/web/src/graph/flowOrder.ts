/**
 * The order a design reads in, for the automatic layout: where messages enter (publishers, then
 * exchanges nothing routes to), then on along every edge a message can take (publish, binding,
 * consume, republish, dead-letter, alternate). The edges that close a loop (a wait queue
 * dead-lettering back to the work exchange) are found by a depth-first walk from the entries and
 * left out, so what remains is acyclic and lays out left to right: entry exchanges, work queues,
 * their consumers, retry exchanges and wait queues, dead-letter exchanges, then dead-letter and
 * parking queues on the right. A dead-letter exchange fed by 13 queues sits right of them.
 */
import type { EdgeKind } from '../model/edgeIds';

export interface OrderEdge {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
}

export interface FlowOrder {
  /** the edges that follow the flow (loops broken) */
  forward: OrderEdge[];
  /** the edges that close a loop, drawn but not used for the layering */
  back: OrderEdge[];
  /** where messages enter: first column */
  first: Set<string>;
  /** where messages end (a queue nothing reads and that routes nowhere, fed by dead letters or a republish): last column */
  last: Set<string>;
}

/** the main flow first: a node's out-edges are walked in this order */
const KIND_ORDER: Record<EdgeKind, number> = {
  publish: 0,
  binding: 1,
  consume: 2,
  republish: 3,
  deadLetter: 4,
  alternate: 5,
};

export function flowOrder(nodeIds: readonly string[], edges: readonly OrderEdge[]): FlowOrder {
  const out = new Map<string, OrderEdge[]>();
  const inDegree = new Map<string, number>();
  for (const id of nodeIds) {
    out.set(id, []);
    inDegree.set(id, 0);
  }
  for (const e of edges) {
    if (!out.has(e.source) || !out.has(e.target)) continue;
    out.get(e.source)!.push(e);
    inDegree.set(e.target, (inDegree.get(e.target) ?? 0) + 1);
  }
  for (const list of out.values()) list.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);

  const roots = [
    ...nodeIds.filter((id) => id.startsWith('publisher:')),
    ...nodeIds.filter((id) => !id.startsWith('publisher:') && inDegree.get(id) === 0),
    ...nodeIds,
  ];
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<OrderEdge>();
  // iterative DFS (an imported vhost can be deep)
  for (const root of roots) {
    if (state.has(root)) continue;
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    state.set(root, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const next = out.get(top.id)![top.i++];
      if (!next) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const s = state.get(next.target);
      if (s === 'open') back.add(next);
      else if (!s) {
        state.set(next.target, 'open');
        stack.push({ id: next.target, i: 0 });
      }
    }
  }
  const forward = edges.filter((e) => out.has(e.source) && out.has(e.target) && !back.has(e));
  const first = new Set(nodeIds.filter((id) => id.startsWith('publisher:')));
  // a queue that dead-letters anywhere (a wait queue back to work) is not where messages end
  const hasOut = new Set(edges.map((e) => e.source));
  const deadFed = new Set(edges.filter((e) => e.kind === 'deadLetter' || e.kind === 'republish').map((e) => e.target));
  // a queue fed through a dead-letter exchange counts too: the DLX's bindings lead to it
  for (const e of edges) if (e.kind === 'binding' && deadFed.has(e.source)) deadFed.add(e.target);
  const last = new Set(nodeIds.filter((id) => id.startsWith('queue:') && !hasOut.has(id) && deadFed.has(id)));
  return { forward, back: [...back], first, last };
}
