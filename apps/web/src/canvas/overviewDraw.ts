/**
 * Draws the overview (overviewModel.ts) on a 2D canvas: group frames with their prefix and size,
 * edges (the curves the DOM edges draw, or straight lines far out), node boxes by kind, and lint and selection marks.
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

/**
 * Returns where the design is on screen (left, top, right, bottom in canvas px) and the group labels
 * drawn: the flows check the design is in view and its groups named readably.
 */
export function drawOverview(
  ctx: CanvasRenderingContext2D,
  m: OverviewModel,
  t: readonly [number, number, number],
  w: number,
  h: number,
  dpr: number,
): { bounds: [number, number, number, number]; labels: DrawnLabel[] } {
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

  for (const g of m.groups) {
    if (g.count < 2 || g.x > vx1 || g.y > vy1 || g.x + g.w < vx0 || g.y + g.h < vy0) continue;
    const cluster = g.level === 'cluster';
    ctx.lineWidth = (cluster ? 2 : 1) / zoom;
    ctx.strokeStyle = cluster ? 'rgba(148,163,184,0.6)' : 'rgba(148,163,184,0.3)';
    ctx.fillStyle = cluster ? 'rgba(30,41,59,0.35)' : 'rgba(51,65,85,0.25)';
    ctx.fillRect(g.x, g.y, g.w, g.h);
    ctx.strokeRect(g.x, g.y, g.w, g.h);
  }

  drawEdges(ctx, m, t, dpr, inView);

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

  const labels = drawGroupLabels(ctx, m, t, w, h, dpr);
  return { bounds: [bx0 * zoom + tx, by0 * zoom + ty, bx1 * zoom + tx, by1 * zoom + ty], labels };
}

/** a group label as drawn: its text and font size on screen (the flows check they are readable) */
export interface DrawnLabel {
  text: string;
  px: number;
}

const LABEL_SIZES = [12, 10] as const;

/**
 * Group names at a fixed size on screen (12 px, else 10), inside the top of their frame where it is
 * wide enough on screen: the name on one line, its queues on the next. Clusters first; a leaf group's
 * name once its frame has the room (zoomed in).
 */
function drawGroupLabels(
  ctx: CanvasRenderingContext2D,
  m: OverviewModel,
  t: readonly [number, number, number],
  w: number,
  h: number,
  dpr: number,
): DrawnLabel[] {
  const [tx, ty, zoom] = t;
  const drawn: DrawnLabel[] = [];
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.textBaseline = 'top';
  for (const level of ['cluster', 'leaf'] as const)
    for (const g of m.groups) {
      if (g.level !== level || g.count < 2) continue;
      const sx = g.x * zoom + tx,
        sy = g.y * zoom + ty,
        sw = g.w * zoom,
        sh = g.h * zoom;
      if (sx > w || sy > h || sx + sw < 0 || sy + sh < 0) continue;
      const lines = [g.key, `${g.queues} queue${g.queues === 1 ? '' : 's'}`];
      // too narrow for even the smaller size (an estimate a little under the real width): not measured
      if (Math.max(...lines.map((l) => l.length)) * 0.5 * LABEL_SIZES[1] + 8 > sw) continue;
      for (const px of LABEL_SIZES) {
        ctx.font = `600 ${px}px ui-sans-serif, system-ui, sans-serif`;
        const lw = Math.max(...lines.map((l) => ctx.measureText(l).width));
        const lh = px + 3;
        if (lw + 8 > sw || 2 * lh + 6 > sh) continue;
        ctx.fillStyle = 'rgba(2,6,23,0.85)';
        ctx.fillRect(sx + 2, sy + 2, lw + 6, 2 * lh + 2);
        ctx.fillStyle = level === 'cluster' ? '#e2e8f0' : '#cbd5e1';
        lines.forEach((l, i) => ctx.fillText(l, sx + 5, sy + 3 + i * lh));
        drawn.push({ text: `${g.key} · ${lines[1]}`, px });
        break;
      }
    }
  return drawn;
}

/** boxes this small on screen (px wide) have their edges drawn as straight one-pixel lines: a curve is not seen */
const FAR_BOX_PX = 24;

/**
 * The edges, batched by colour. Far out (boxes a few px wide) as straight lines of one device pixel in screen
 * coordinates: 13,000 curves stroked 1/zoom wide cost the compositor 0.2 s to raster, per redraw (issue 41's
 * file opened and reloaded with tasks of 0.2-0.27 s); nearer, the curves the DOM edges draw.
 */
function drawEdges(
  ctx: CanvasRenderingContext2D,
  m: OverviewModel,
  t: readonly [number, number, number],
  dpr: number,
  inView: (x: number, y: number) => boolean,
): void {
  const [tx, ty, zoom] = t;
  const far = NODE_W * zoom < FAR_BOX_PX;
  const k = dpr * zoom;
  const paths = new Map<string, Path2D>();
  for (const e of m.edges) {
    const a = m.byId.get(e.source);
    const b = m.byId.get(e.target);
    if (!a || !b || (!inView(a.x, a.y) && !inView(b.x, b.y))) continue;
    const stroke = EDGE_STYLE[e.kind as keyof typeof EDGE_STYLE]?.stroke ?? '#94a3b8';
    let p = paths.get(stroke);
    if (!p) paths.set(stroke, (p = new Path2D()));
    const [x0, y0] = e.ae ? [a.x + NODE_W / 2, a.y + NODE_H] : [a.x + NODE_W, a.y + NODE_H / 2];
    if (far) {
      p.moveTo(x0 * k + tx * dpr, y0 * k + ty * dpr);
      p.lineTo(b.x * k + tx * dpr, (b.y + NODE_H / 2) * k + ty * dpr);
      continue;
    }
    const c = edgeCubic(x0, y0, e.ae ? 'bottom' : 'right', b.x, b.y + NODE_H / 2, 'left');
    p.moveTo(c.x0, c.y0);
    p.bezierCurveTo(c.x1, c.y1, c.x2, c.y2, c.x3, c.y3);
  }
  if (far) ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.lineWidth = far ? 1 : Math.max(1.5, 1 / zoom);
  for (const [stroke, p] of paths) {
    ctx.strokeStyle = stroke;
    ctx.stroke(p);
  }
  if (far) ctx.setTransform(k, 0, 0, k, dpr * tx, dpr * ty);
}
