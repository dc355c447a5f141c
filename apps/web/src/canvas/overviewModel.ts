/**
 * The overview of a big design (semantic zoom): below OVERVIEW_ZOOM a design of OVERVIEW_MIN_NODES
 * or more is drawn on one canvas as node boxes, edges and groups (the core's `clusterNodes`, the
 * grouping of the import's layout: clusters labelled at the opening zoom, their leaf groups as one
 * zooms in) instead of thousands of DOM nodes.
 * Zoomed in past it, React Flow draws the nodes themselves (only the visible ones).
 * Measured (bench:canvas, 5,005 nodes, 1,430 tokens, a 2-core VM): DOM nodes fitted 19 fps; with the
 * overview 60 fps, drawn in 0.7-1.7 s once the core stopped simulating the whole design per publisher
 * (the draw time was lint and the budget, not the canvas: README, bench:canvas).
 */
import { clusterNodes, type NodeCluster } from '@retry-studio/topology-core/operate';
import type { Design } from '@retry-studio/topology-core/model';
import { NODE_H, NODE_W, type DesignEdge, type DesignNode, type Severity } from '../graph/flowTypes';
import { READABLE_MAX_NODES } from '../graph/readableZoom';

/**
 * Below this zoom a face's name does not read at 9 px (graph/wrapLayout.ts's READABLE_ZOOM, a little under):
 * a design of more than 60 nodes is drawn as the overview there, its groups labelled, one click from names
 * (issue 41: a 103-queue file's second vhost opened at 0.035 with nothing to read).
 */
export const OVERVIEW_ZOOM = 0.5;
/** smaller designs stay DOM nodes at every zoom (a template is a few dozen nodes) */
export const OVERVIEW_MIN_NODES = READABLE_MAX_NODES + 1;
/** from this many nodes React Flow mounts only the nodes in view (and the overview is the map: no minimap) */
export const BIG_DESIGN_NODES = 300;

export interface OverviewNode {
  id: string;
  kind: string;
  x: number;
  y: number;
  selected: boolean;
  lint?: Severity;
}

export interface OverviewGroup {
  /** a cluster (labelled at the opening zoom) or one of its leaf groups (labelled once there is room) */
  level: 'cluster' | 'leaf';
  key: string;
  /** flow-coordinate bounds around its nodes */
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
  queues: number;
}

export interface OverviewEdge {
  kind: string;
  source: string;
  target: string;
  ae: boolean;
}

export interface OverviewModel {
  nodes: OverviewNode[];
  byId: Map<string, OverviewNode>;
  edges: OverviewEdge[];
  groups: OverviewGroup[];
}

const GROUP_PAD = 24;

/** a design's clusters, once per version (a lint result or a selection redraws the overview, not regroups it) */
const clusters = new WeakMap<Design, readonly NodeCluster[]>();
function clustersOf(design: Design): readonly NodeCluster[] {
  let c = clusters.get(design);
  if (!c) clusters.set(design, (c = clusterNodes(design)));
  return c;
}

/** keeps the clusters of a design grouped elsewhere (the import worker groups what it lays out) */
export function keepClusters(design: Design, c: readonly NodeCluster[]): void {
  clusters.set(design, c);
}
const CLUSTER_PAD = 60;

export function overviewModel(
  design: Design,
  nodes: readonly DesignNode[],
  edges: readonly DesignEdge[],
): OverviewModel {
  const ov: OverviewNode[] = nodes.map((n) => ({
    id: n.id,
    kind: n.type ?? 'queue',
    x: n.position.x,
    y: n.position.y,
    selected: !!n.selected,
    lint: n.data.lint,
  }));
  const byId = new Map(ov.map((n) => [n.id, n]));
  const groups: OverviewGroup[] = [];
  const frame = (level: OverviewGroup['level'], key: string, ids: readonly string[], queues: number, pad: number) => {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const id of ids) {
      const n = byId.get(id);
      if (!n) continue;
      x0 = Math.min(x0, n.x);
      y0 = Math.min(y0, n.y);
      x1 = Math.max(x1, n.x + NODE_W);
      y1 = Math.max(y1, n.y + NODE_H);
    }
    if (x0 === Infinity) return;
    groups.push({
      level,
      key,
      x: x0 - pad,
      y: y0 - pad,
      w: x1 - x0 + 2 * pad,
      h: y1 - y0 + 2 * pad,
      count: ids.length,
      queues,
    });
  };
  for (const c of clustersOf(design)) {
    frame(
      'cluster',
      c.key,
      c.leaves.flatMap((l) => l.nodes),
      c.queues,
      CLUSTER_PAD,
    );
    // a cluster of one leaf is framed once
    if (c.leaves.length > 1) for (const l of c.leaves) frame('leaf', l.key, l.nodes, l.queues, GROUP_PAD);
  }
  return {
    nodes: ov,
    byId,
    edges: edges.map((e) => ({
      kind: e.data?.kind ?? 'binding',
      source: e.source,
      target: e.target,
      ae: e.sourceHandle === 'ae',
    })),
    groups,
  };
}

/** the node under a flow point, else the smallest group around it */
export function overviewHit(
  m: OverviewModel,
  p: { x: number; y: number },
): { node?: OverviewNode; group?: OverviewGroup } {
  for (const n of m.nodes)
    if (p.x >= n.x && p.x <= n.x + NODE_W && p.y >= n.y && p.y <= n.y + NODE_H)
      return { node: n, group: groupAt(m, p) };
  return { group: groupAt(m, p) };
}

/** the smallest group around the point (a leaf before its cluster) */
function groupAt(m: OverviewModel, p: { x: number; y: number }): OverviewGroup | undefined {
  let best: OverviewGroup | undefined;
  for (const g of m.groups)
    if (p.x >= g.x && p.x <= g.x + g.w && p.y >= g.y && p.y <= g.y + g.h && (!best || g.w * g.h < best.w * best.h))
      best = g;
  return best;
}
