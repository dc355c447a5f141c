/**
 * A big design drawn cheaply (issue 39: out of Canvas): only the edges near the view, and in the
 * overview the nodes hidden (kept in React Flow so fitting, the minimap and the overlay know them).
 */
import { useMemo, useRef } from 'react';
import { useStore } from '@xyflow/react';
import { NODE_H, NODE_W, type DesignEdge, type DesignNode } from '../graph/flowTypes';

/**
 * Zoomed in on a big design, the edges with an end in (or near) the view: React Flow draws every edge whose
 * bounding box meets the view, and a 10,000-queue vhost's team exchange sent 2,000 edges across it.
 */
export function useEdgesNearView(big: boolean, edges: DesignEdge[], nodes: readonly DesignNode[]): DesignEdge[] {
  const viewKey = useStore((s) => (big ? viewCell(s.transform, s.width, s.height) : ''));
  return useMemo(() => {
    if (!viewKey) return edges;
    const [x0, y0, x1, y1] = viewKey.split(',').map(Number) as [number, number, number, number];
    const at = new Map(nodes.map((n) => [n.id, n.position]));
    const near = (id: string) => {
      const p = at.get(id);
      return !!p && p.x + NODE_W >= x0 && p.x <= x1 && p.y + NODE_H >= y0 && p.y <= y1;
    };
    return edges.filter((e) => near(e.source) || near(e.target));
  }, [viewKey, edges, nodes]);
}

/**
 * In the overview, each node as a hidden copy, kept while the node is: a lint result arriving re-rendered
 * 10,000 new copies (React Flow adopts each).
 */
export function useHiddenInOverview(overview: boolean, nodes: DesignNode[]): DesignNode[] {
  const hiddenCopies = useRef(new WeakMap<DesignNode, DesignNode>());
  return useMemo(() => {
    if (!overview) return nodes;
    const copies = hiddenCopies.current;
    return nodes.map((n) => {
      let c = copies.get(n);
      if (!c) copies.set(n, (c = { ...n, hidden: true }));
      return c;
    });
  }, [overview, nodes]);
}

/**
 * The view widened by half its size on each side, snapped to a grid of half its size (a power of two): a key
 * that changes when a pan or zoom has gone far enough to bring other nodes near, not on every frame.
 */
function viewCell(t: [number, number, number], width: number, height: number): string {
  const [tx, ty, z] = t;
  if (!width || !height) return '';
  const step = 2 ** Math.ceil(Math.log2(Math.max(width, height) / z)) / 2;
  const x0 = Math.floor((-tx / z - step) / step) * step;
  const y0 = Math.floor((-ty / z - step) / step) * step;
  const x1 = Math.ceil(((width - tx) / z + step) / step) * step;
  const y1 = Math.ceil(((height - ty) / z + step) / step) * step;
  return `${x0},${y0},${x1},${y1}`;
}
