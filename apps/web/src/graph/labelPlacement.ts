/**
 * Where each edge label sits on its curve: at the middle unless another label or a node is
 * already there, then further along the curve (or just above / below it). Three dead-letter
 * edges from three wait queues back to one exchange have nearly the same middle: their labels
 * were drawn on top of each other.
 */
import { cubicAt, type Cubic } from './bezier';

export interface LabelSpot {
  /** curve parameter of the label's centre */
  t: number;
  /** vertical offset from the curve, px */
  dy: number;
  /** no spot is free of other labels and mostly of nodes: drawn only hovered (a fan's labels piled on each other) */
  crowded?: boolean;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** the edge label's box at zoom 1 (11 px text, 4 px padding) */
export const labelSize = (label: string) => ({ w: label.length * 6.3 + 8, h: 16 });
/**
 * Labels grow up to this much when the view is zoomed out (DesignEdge: 11 px × min(--ts, LABEL_MAX_SCALE)),
 * so they stay readable in a fitted overview; placement keeps room for them at that size.
 */
export const LABEL_MAX_SCALE = 1.4;
const placedSize = (label: string) => {
  const { w, h } = labelSize(label);
  return { w: w * LABEL_MAX_SCALE, h: h * LABEL_MAX_SCALE };
};

// the far spots (0.12, 0.88; two rows off the curve) are for fans: 21 bindings from one exchange to 12
// queues meet at the exchange, and only near the queues are the curves a row apart
const TS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.88, 0.12];
const DYS = [0, -23, 23, -46, 46];
const CELL = 120;
/** a label whose best spot covers more of a node than this share of its own box is drawn only hovered */
const CROWDED_NODE_SHARE = 0.25;

/** A grid of rectangles, for overlap tests that stay cheap on a 300-node canvas (numeric cell keys, no allocation per query). */
class RectGrid {
  private cells = new Map<number, Array<Rect & { stamp: number }>>();
  private query = 0;
  /** an int32 key (a small integer Map key hashes without allocating) */
  private static key = (i: number, j: number) => ((i & 0xffff) << 16) | (j & 0xffff);
  add(rect: Rect): void {
    const r = { ...rect, stamp: 0 };
    for (let i = Math.floor(r.x / CELL); i <= Math.floor((r.x + r.w) / CELL); i++)
      for (let j = Math.floor(r.y / CELL); j <= Math.floor((r.y + r.h) / CELL); j++) {
        const k = RectGrid.key(i, j);
        const c = this.cells.get(k);
        if (c) c.push(r);
        else this.cells.set(k, [r]);
      }
  }
  /** area of `r` covered by the rectangles in the grid (each counted once) */
  covered(r: Rect): number {
    const q = ++this.query;
    let area = 0;
    for (let i = Math.floor(r.x / CELL); i <= Math.floor((r.x + r.w) / CELL); i++)
      for (let j = Math.floor(r.y / CELL); j <= Math.floor((r.y + r.h) / CELL); j++) {
        const c = this.cells.get(RectGrid.key(i, j));
        if (!c) continue;
        for (const o of c) {
          if (o.stamp === q || !overlaps(o, r)) continue;
          o.stamp = q;
          area +=
            (Math.min(o.x + o.w, r.x + r.w) - Math.max(o.x, r.x)) *
            (Math.min(o.y + o.h, r.y + r.h) - Math.max(o.y, r.y));
        }
      }
    return area;
  }
}

export const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Places labels in order; each takes the first spot that covers no label placed before it and no node, else
 * the least covered one, marked crowded (shown hovered) where that still covers a label or much of a node.
 */
export function placeLabels(
  edges: ReadonlyArray<{ id: string; label: string; cubic: Cubic }>,
  nodes: readonly Rect[],
): Map<string, LabelSpot> {
  const nodeGrid = new RectGrid();
  for (const n of nodes) nodeGrid.add(n);
  // a label above the top row or below the bottom one is outside what the opening view fits (and under its notices)
  const top = Math.min(...nodes.map((n) => n.y));
  const bottom = Math.max(...nodes.map((n) => n.y + n.h));
  const outside = (r: Rect) => (Math.max(0, top - r.y) + Math.max(0, r.y + r.h - bottom)) * r.w;
  const labelGrid = new RectGrid();
  const out = new Map<string, LabelSpot>();
  const p = { x: 0, y: 0 };
  for (const e of edges) {
    if (!e.label) continue;
    const { w, h } = placedSize(e.label);
    let best: { spot: LabelSpot; rect: Rect; score: number } | null = null;
    search: for (const dy of DYS)
      for (const t of TS) {
        cubicAt(e.cubic, t, p);
        const rect = { x: p.x - w / 2, y: p.y + dy - h / 2, w, h };
        // another label hidden is worse than a node's corner covered
        const score = labelGrid.covered(rect) * 10 + nodeGrid.covered(rect) + (nodes.length ? outside(rect) : 0);
        if (!best || score < best.score) best = { spot: { t, dy }, rect, score };
        if (score === 0) break search;
      }
    const crowded = labelGrid.covered(best!.rect) > 0 || nodeGrid.covered(best!.rect) > CROWDED_NODE_SHARE * w * h;
    // a crowded label takes no room: the others keep their spots as if it were not there
    if (crowded) out.set(e.id, { ...best!.spot, crowded: true });
    else {
      labelGrid.add(best!.rect);
      out.set(e.id, best!.spot);
    }
  }
  return out;
}
