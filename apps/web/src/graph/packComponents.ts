/**
 * A layout of several unconnected parts (a real file's dead-letter pair beside its main fan, a vhost's
 * unrelated services) packed for the canvas it opens in: each part wrapped to the canvas on its own
 * (wrapLayout.ts), then the parts set in rows, the largest first, at the row width that opens them
 * largest. ELK set them side by side: a real 12-queue file's two-node pair took two columns beside its
 * fan, and at 1280x800 its names opened at 8.1 px.
 */
import type { NodePosition } from '@retry-studio/topology-core/model';
import { NODE_H, NODE_W } from './flowTypes';
import { openingFit, type Size } from './openingFit';
import { wrapToShape } from './wrapLayout';

type Layout = Readonly<Record<string, NodePosition>>;

/** between two parts (no edge runs between them): room for the tab of a node's folded publishers (nodes.tsx) */
const PART_GAP = 70;
/** the shares of the canvas's height a part is wrapped for, tried in turn */
const PART_HEIGHT_SHARES = [1, 0.8, 0.65, 0.5];

/** The parts of a graph: nodes joined by an edge either way are one part (in the order their first node comes). */
export function componentsOf(
  ids: readonly string[],
  edges: readonly { readonly source: string; readonly target: string }[],
): string[][] {
  const parent = new Map(ids.map((id) => [id, id]));
  const find = (id: string): string => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(id, r);
    return r;
  };
  for (const e of edges) if (parent.has(e.source) && parent.has(e.target)) parent.set(find(e.source), find(e.target));
  const parts = new Map<string, string[]>();
  for (const id of ids) {
    const r = find(id);
    const p = parts.get(r);
    if (p) p.push(id);
    else parts.set(r, [id]);
  }
  return [...parts.values()];
}

/** a layout's bounds, and its nodes moved to start at 0, 0 */
function normalized(layout: Layout): { layout: Record<string, NodePosition>; size: Size } {
  const ps = Object.values(layout);
  const x0 = Math.min(...ps.map((p) => p.x));
  const y0 = Math.min(...ps.map((p) => p.y));
  const out: Record<string, NodePosition> = {};
  for (const [id, p] of Object.entries(layout)) out[id] = { x: p.x - x0, y: p.y - y0 };
  return {
    layout: out,
    size: {
      width: Math.max(...ps.map((p) => p.x)) - x0 + NODE_W,
      height: Math.max(...ps.map((p) => p.y)) - y0 + NODE_H,
    },
  };
}

/** the zoom a layout opens at in the canvas */
export function openingZoom(layout: Layout, canvas: Size): number {
  if (Object.keys(layout).length === 0) return 1;
  return openingFit(normalized(layout).size, canvas).zoom;
}

/** parts in rows no wider than `width` (a part wider than that has a row of its own) */
function shelves(parts: readonly ReturnType<typeof normalized>[], width: number): Record<string, NodePosition> {
  const out: Record<string, NodePosition> = {};
  let x = 0;
  let y = 0;
  let rowH = 0;
  for (const p of parts) {
    if (x > 0 && x + p.size.width > width) [x, y, rowH] = [0, y + rowH + PART_GAP, 0];
    for (const [id, q] of Object.entries(p.layout)) out[id] = { x: x + q.x, y: y + q.y };
    x += p.size.width + PART_GAP;
    rowH = Math.max(rowH, p.size.height);
  }
  return out;
}

/**
 * The parts of a layout (each as it is placed there) set in rows no wider than `width`, the largest first: a
 * design whose names read only closer than its fitted zoom opens on a part of it (readableZoom.ts), and rows
 * that end before the minimap's strip keep the rest below, clear of it (a real 37-node file's grid of five
 * columns ran under the minimap).
 */
export function packToWidth(
  layout: Layout,
  parts: readonly (readonly string[])[],
  width: number,
): Record<string, NodePosition> {
  const pieces = parts
    .map((ids) => normalized(Object.fromEntries(ids.map((id) => [id, layout[id]!]))))
    .sort((a, b) => b.size.height * b.size.width - a.size.height * a.size.width);
  return shelves(pieces, width);
}

/**
 * `parts`: the layout's components (componentsOf). The layout packed part by part where that opens larger
 * than the whole wrapped at once; else the whole wrapped (wrapToShape).
 */
export function packToShape(
  layout: Layout,
  parts: readonly (readonly string[])[],
  canvas: Size,
): Record<string, NodePosition> {
  const whole = wrapToShape(layout, canvas);
  if (parts.length < 2 || canvas.width <= 0 || canvas.height <= 0) return whole;
  let best = { zoom: openingZoom(whole, canvas), layout: whole };
  const consider = (packed: Record<string, NodePosition>) => {
    const zoom = openingZoom(packed, canvas);
    if (zoom > best.zoom * 1.02) best = { zoom, layout: packed };
  };
  // each part wrapped for a share of the canvas's height (the parts stacked share it), then set in rows
  for (const share of PART_HEIGHT_SHARES) {
    const room = { width: canvas.width, height: canvas.height * share };
    const pieces = parts
      .map((ids) => normalized(wrapToShape(Object.fromEntries(ids.map((id) => [id, layout[id]!])), room)))
      // the largest first (top left), the smaller ones filling the rows after it
      .sort((a, b) => b.size.height * b.size.width - a.size.height * a.size.width);
    const widest = Math.max(...pieces.map((p) => p.size.width));
    const total = pieces.reduce((sum, p) => sum + p.size.width + PART_GAP, -PART_GAP);
    // every row width from one part a row to all in one row
    for (let width = widest; ; width = Math.min(total, width + Math.max(NODE_W, widest / 4))) {
      consider(shelves(pieces, width));
      if (width >= total) break;
    }
  }
  return best.layout;
}
