/**
 * Draws the overview (overviewModel.ts) on a 2D canvas: group frames with their prefix and size,
 * edges as the same curves the DOM edges draw, node boxes by kind, and lint and selection marks.
 * Batched by colour (one path per colour), culled to the view: a redraw of 5,000 nodes is a few ms,
 * and it happens only when the view or the design changes, never per animation frame.
 */
import { edgeCubic } from '../graph/bezier';
import { NODE_H, NODE_W } from '../graph/flowTypes';
import { EDGE_STYLE } from './DesignEdge';
import type { OverviewModel } from './overviewModel';

export const OVERVIEW_NODE_COLOR: Record<string, string> = {
  exchange: '#3b82f6',
  queue: '#64748b',
  consumer: '#10b981',
  publisher: '#0ea5e9',
};
const LINT_COLOR = { error: '#dc2626', warning: '#f59e0b', info: '#0284c7' } as const;

/** returns where the design is on screen (left, top, right, bottom in canvas px): the flows check it is in view */
export function drawOverview(
  ctx: CanvasRenderingContext2D,
  m: OverviewModel,
  t: readonly [number, number, number],
  w: number,
  h: number,
  dpr: number,
): [number, number, number, number] {
  const [tx, ty, zoom] = t;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
  // the view in flow coordinates, with a margin so curves that leave it are still drawn
  const vx0 = -tx / zoom - NODE_W,
    vy0 = -ty / zoom - NODE_H;
  const vx1 = (w - tx) / zoom + NODE_W,
    vy1 = (h - ty) / zoom + NODE_H;
  const inView = (x: number, y: number) => x >= vx0 && x <= vx1 && y >= vy0 && y <= vy1;

  ctx.lineWidth = 1 / zoom;
  ctx.strokeStyle = 'rgba(148,163,184,0.35)';
  ctx.fillStyle = 'rgba(30,41,59,0.35)';
  for (const g of m.groups) {
    if (g.count < 2 || g.x > vx1 || g.y > vy1 || g.x + g.w < vx0 || g.y + g.h < vy0) continue;
    ctx.fillRect(g.x, g.y, g.w, g.h);
    ctx.strokeRect(g.x, g.y, g.w, g.h);
  }

  const paths = new Map<string, Path2D>();
  for (const e of m.edges) {
    const a = m.byId.get(e.source);
    const b = m.byId.get(e.target);
    if (!a || !b || (!inView(a.x, a.y) && !inView(b.x, b.y))) continue;
    const c = e.ae
      ? edgeCubic(a.x + NODE_W / 2, a.y + NODE_H, 'bottom', b.x, b.y + NODE_H / 2, 'left')
      : edgeCubic(a.x + NODE_W, a.y + NODE_H / 2, 'right', b.x, b.y + NODE_H / 2, 'left');
    const stroke = EDGE_STYLE[e.kind as keyof typeof EDGE_STYLE]?.stroke ?? '#94a3b8';
    let p = paths.get(stroke);
    if (!p) paths.set(stroke, (p = new Path2D()));
    p.moveTo(c.x0, c.y0);
    p.bezierCurveTo(c.x1, c.y1, c.x2, c.y2, c.x3, c.y3);
  }
  ctx.lineWidth = Math.max(1.5, 1 / zoom);
  for (const [stroke, p] of paths) {
    ctx.strokeStyle = stroke;
    ctx.stroke(p);
  }

  let bx0 = Infinity,
    by0 = Infinity,
    bx1 = -Infinity,
    by1 = -Infinity;
  const boxes = new Map<string, Path2D>();
  const selected = new Path2D();
  const marks = new Map<string, Path2D>();
  for (const n of m.nodes) {
    bx0 = Math.min(bx0, n.x);
    by0 = Math.min(by0, n.y);
    bx1 = Math.max(bx1, n.x + NODE_W);
    by1 = Math.max(by1, n.y + NODE_H);
    if (!inView(n.x, n.y)) continue;
    const color = OVERVIEW_NODE_COLOR[n.kind] ?? '#64748b';
    let p = boxes.get(color);
    if (!p) boxes.set(color, (p = new Path2D()));
    p.rect(n.x, n.y, NODE_W, NODE_H);
    if (n.selected) selected.rect(n.x - 6, n.y - 6, NODE_W + 12, NODE_H + 12);
    if (n.lint) {
      let q = marks.get(n.lint);
      if (!q) marks.set(n.lint, (q = new Path2D()));
      q.rect(n.x - 10, n.y - 10, 40, 40);
    }
  }
  for (const [color, p] of boxes) {
    ctx.fillStyle = color;
    ctx.fill(p);
  }
  for (const [sev, p] of marks) {
    ctx.fillStyle = LINT_COLOR[sev as keyof typeof LINT_COLOR];
    ctx.fill(p);
  }
  ctx.lineWidth = Math.max(12, 3 / zoom);
  ctx.strokeStyle = '#f8fafc';
  ctx.stroke(selected);

  // group names at a fixed size on screen, where the group is wide enough on screen to hold one
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = '600 12px ui-sans-serif, system-ui, sans-serif';
  ctx.textBaseline = 'bottom';
  for (const g of m.groups) {
    if (g.count < 2) continue;
    const sx = g.x * zoom + tx,
      sy = g.y * zoom + ty,
      sw = g.w * zoom;
    if (sx > w || sy > h + 14 || sx + sw < 0 || sy < 0) continue;
    const label = `${g.key} · ${g.queues} queue${g.queues === 1 ? '' : 's'}`;
    const lw = ctx.measureText(label).width;
    if (lw + 6 > sw) continue;
    ctx.fillStyle = 'rgba(2,6,23,0.8)';
    ctx.fillRect(sx, sy - 15, lw + 6, 15);
    ctx.fillStyle = '#e2e8f0';
    ctx.fillText(label, sx + 3, sy - 1);
  }
  return [bx0 * zoom + tx, by0 * zoom + ty, bx1 * zoom + tx, by1 * zoom + ty];
}
