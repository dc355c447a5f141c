/**
 * The token overlay: ONE canvas over the flow, ONE rAF loop (excalidraw's AnimationController
 * idea). Tokens never touch React state: each frame reads the player clock, the viewport
 * transform and node rectangles from React Flow's store, and draws every token and every
 * queue depth counter in a few batched paths.
 */
import { outcomeTone } from '@retry-studio/topology-core/sim';
import { cubicAt, edgeCubic, type Cubic, type Side } from '../graph/bezier';
import { NODE_H, NODE_W } from '../graph/flowTypes';
import { floorIndex, type MessageTrack, type PlaybackPlan } from '../sim/compilePlayback';
import type { Player } from '../sim/player';

export interface OverlaySources {
  /** [x, y, zoom] of the viewport */
  transform(): readonly [number, number, number];
  /** top-left of a node in flow coordinates */
  nodePos(id: string): { x: number; y: number } | undefined;
  /** how an edge between two nodes leaves its source: 'ae' edges leave from the bottom */
  edgeSide(from: string, to: string): 'out' | 'ae' | 'reverse' | undefined;
  /** the message being inspected (drawn larger, ringed) */
  inspected(): string | null;
  /** node where the live trace first differs from the prediction */
  divergence(): string | null;
}

const COLORS = { sim: '#38bdf8', live: '#f97316' } as const;
const tmp = { x: 0, y: 0 };

/** A token pre-rendered once: one blit per token instead of building and filling a path of 1,000 arcs. */
const SPRITE = 12;
const sprites = new Map<string, HTMLCanvasElement>();
function sprite(color: string): HTMLCanvasElement {
  let c = sprites.get(color);
  if (!c) {
    c = document.createElement('canvas');
    c.width = c.height = SPRITE * 2; // 2x for zoomed-in sharpness
    const g = c.getContext('2d')!;
    g.fillStyle = color;
    g.beginPath();
    g.arc(SPRITE, SPRITE, SPRITE - 2, 0, Math.PI * 2);
    g.fill();
    g.strokeStyle = 'rgba(2,6,23,0.8)';
    g.lineWidth = 2;
    g.stroke();
    sprites.set(color, c);
  }
  return c;
}

export class TokenOverlay {
  private ctx: CanvasRenderingContext2D;
  private raf = 0;
  private last = 0;
  /** from → to → cubic, with the endpoints it was built for (no string keys in the frame loop) */
  private cubicCache = new Map<string, Map<string, { ax: number; ay: number; bx: number; by: number; c: Cubic }>>();
  private size = { w: 0, h: 0 };
  private ro: ResizeObserver | null = null;
  /** frames drawn, and their timestamps, for the canvas bench */
  frames = 0;
  drawnTokens = 0;
  /** live-trace tokens drawn, summed over frames (a fast trace can finish between two reads of drawnTokens) */
  liveTokensDrawn = 0;
  private detailed = true;
  /** ms spent drawing, summed (the bench reads it) */
  drawMs = 0;

  constructor(
    private canvas: HTMLCanvasElement,
    private player: Player,
    private src: OverlaySources,
  ) {
    // desynchronized: the token layer may skip the compositor's commit path where the browser supports it
    this.ctx = canvas.getContext('2d', { desynchronized: true })!;
  }

  start(): void {
    // size from a ResizeObserver: reading clientWidth every frame would force a layout
    this.ro = new ResizeObserver(() => {
      this.size = { w: this.canvas.clientWidth, h: this.canvas.clientHeight };
    });
    this.ro.observe(this.canvas);
    this.size = { w: this.canvas.clientWidth, h: this.canvas.clientHeight };
    const loop = (now: number) => {
      const dt = this.last ? Math.min(100, now - this.last) : 0;
      this.last = now;
      this.player.advance(dt);
      const t0 = performance.now();
      this.draw();
      this.drawMs += performance.now() - t0;
      this.frames++;
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  /** edges changed: cached curves may now leave from another side */
  invalidate(): void {
    this.cubicCache.clear();
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
    this.ro?.disconnect();
  }

  private resize(): { w: number; h: number } {
    const dpr = window.devicePixelRatio || 1;
    const { w, h } = this.size;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { w, h };
  }

  draw(): void {
    const { w, h } = this.resize();
    const ctx = this.ctx;
    ctx.clearRect(0, 0, w, h);
    const { sim, live } = this.player.plans;
    if (!sim && !live) {
      this.drawnTokens = 0;
      return;
    }
    const [tx, ty, zoom] = this.src.transform();
    ctx.save();
    ctx.translate(tx, ty);
    ctx.scale(zoom, zoom);
    // level of detail: zoomed far out, text and rings would be unreadable specks; skip them
    this.detailed = zoom >= 0.45;
    let n = 0;
    if (sim) {
      // a depth box is 22 px wide: under 3 px on screen it is noise, not a number (the overview's zoom)
      if (zoom * 22 >= 3)
        this.drawDepths(sim, { x0: -tx / zoom, y0: -ty / zoom - 20, x1: (w - tx) / zoom, y1: (h - ty) / zoom + 20 });
      n += this.drawTokens(sim, COLORS.sim, live ? -7 : 0);
    }
    if (live) {
      const m = this.drawTokens(live, COLORS.live, sim ? 7 : 0);
      this.liveTokensDrawn += m;
      n += m;
    }
    this.drawDivergence();
    ctx.restore();
    this.drawnTokens = n;
  }

  private cubic(from: string, to: string): Cubic | undefined {
    const a = this.src.nodePos(from);
    const b = this.src.nodePos(to);
    if (!a || !b) return undefined;
    let row = this.cubicCache.get(from);
    if (!row) this.cubicCache.set(from, (row = new Map()));
    const hit = row.get(to);
    if (hit && hit.ax === a.x && hit.ay === a.y && hit.bx === b.x && hit.by === b.y) return hit.c;
    const side = this.src.edgeSide(from, to);
    let c: Cubic;
    if (side === 'ae') c = edgeCubic(a.x + NODE_W / 2, a.y + NODE_H, 'bottom', b.x, b.y + NODE_H / 2, 'left');
    else if (side === 'reverse') {
      // travel the forward edge backwards (a consumer rejecting back to its queue)
      const f = edgeCubic(b.x + NODE_W, b.y + NODE_H / 2, 'right' as Side, a.x, a.y + NODE_H / 2, 'left');
      c = { x0: f.x3, y0: f.y3, x1: f.x2, y1: f.y2, x2: f.x1, y2: f.y1, x3: f.x0, y3: f.y0 };
    } else c = edgeCubic(a.x + NODE_W, a.y + NODE_H / 2, 'right', b.x, b.y + NODE_H / 2, 'left');
    row.set(to, { ax: a.x, ay: a.y, bx: b.x, by: b.y, c });
    return c;
  }

  private drawTokens(plan: PlaybackPlan, color: string, lane: number): number {
    const ctx = this.ctx;
    const p = this.player.p;
    const inspected = this.src.inspected();
    const waits: Array<[number, number, number]> = [];
    /** per waiting node: the soonest deadline and how many wait there (one countdown per node, never one per token) */
    const waitsByNode = new Map<string, { next: number; n: number }>();
    let special: { x: number; y: number } | null = null;
    let count = 0;
    const img = sprite(color);
    const drops: Array<[number, number]> = [];
    // zoomed far out a token is under 4 px on screen: a dot of 3 px in one batched path, not a scaled sprite each
    // (1,400 sprites shrunk to a fraction of a pixel cost 15 ms a frame)
    const [, , zoom] = this.src.transform();
    const dots = 12 * zoom < 4 ? new Path2D() : null;
    const dot = 3 / zoom;
    for (const tr of plan.tracks) {
      const pos = this.tokenAt(tr, p, lane);
      if (!pos) continue;
      if (pos.dropped) {
        drops.push([pos.x, pos.y]);
        continue;
      }
      count++;
      if (dots) dots.rect(pos.x - dot / 2, pos.y - dot / 2, dot, dot);
      else ctx.drawImage(img, pos.x - 6, pos.y - 6, 12, 12);
      if (pos.wait !== undefined && this.detailed) {
        waits.push([pos.x, pos.y, pos.wait]);
        const w = waitsByNode.get(pos.node!);
        const rem = pos.remaining ?? 0;
        if (w) {
          w.n++;
          w.next = Math.min(w.next, rem);
        } else waitsByNode.set(pos.node!, { next: rem, n: 1 });
      }
      if (tr.msgId === inspected) special = { x: pos.x, y: pos.y };
    }
    if (dots) {
      ctx.fillStyle = color;
      ctx.fill(dots);
    }
    // TTL / delay waits: a ring that closes as the deadline nears
    if (waits.length && this.detailed) {
      ctx.strokeStyle = '#fde68a';
      ctx.lineWidth = 2;
      ctx.beginPath();
      for (const [x, y, f] of waits) {
        ctx.moveTo(x + 9 * Math.cos(-Math.PI / 2), y + 9 * Math.sin(-Math.PI / 2));
        ctx.arc(x, y, 9, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * f);
      }
      ctx.stroke();
      this.drawCountdowns(waitsByNode, lane);
    }
    if (drops.length) {
      ctx.strokeStyle = '#ef4444';
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      for (const [x, y] of drops) {
        ctx.moveTo(x - 6, y - 6);
        ctx.lineTo(x + 6, y + 6);
        ctx.moveTo(x + 6, y - 6);
        ctx.lineTo(x - 6, y + 6);
      }
      ctx.stroke();
    }
    if (special) {
      const s = special as { x: number; y: number };
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(s.x, s.y, 10, 0, Math.PI * 2);
      ctx.stroke();
    }
    return count;
  }

  private tokenAt(
    tr: MessageTrack,
    p: number,
    lane: number,
  ): { x: number; y: number; wait?: number; remaining?: number; dropped?: boolean; node?: string } | undefined {
    const stops = tr.stops;
    if (!stops.length || p < stops[0]!.arrive) return undefined;
    // acked or lost: gone once its story ends (resting, moving or held: it stays where it got to)
    const tone = tr.fate ? outcomeTone(tr.fate) : 'open';
    if (p > tr.end && (tone === 'ok' || tone === 'loss')) {
      // lost messages leave a mark for a moment where they died
      if (tone === 'loss' && p < tr.end + 900) {
        const last = stops[stops.length - 1]!;
        const a = this.src.nodePos(last.node);
        return a ? { x: a.x + NODE_W / 2, y: a.y + NODE_H / 2, dropped: true } : undefined;
      }
      return undefined;
    }
    // binary search over arrivals
    let lo = 0;
    let hi = stops.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (stops[mid]!.arrive <= p) lo = mid;
      else hi = mid - 1;
    }
    const i = lo;
    const here = stops[i]!;
    const next = stops[i + 1];
    const jitter = ((tr.index * 7919) % 23) - 11;
    if (next && p >= next.arrive - HOP_MS_OF(next, here)) {
      const dur = HOP_MS_OF(next, here);
      const u = Math.max(0, Math.min(1, (p - (next.arrive - dur)) / dur));
      const c = this.cubic(here.node, next.node);
      if (c) {
        cubicAt(c, easeInOut(u), tmp);
        return { x: tmp.x, y: tmp.y + lane + jitter * 0.25 };
      }
    }
    const a = this.src.nodePos(here.node);
    if (!a) return undefined;
    const x = a.x + NODE_W - 22 - (Math.abs(jitter) % 6) * 4;
    const y = a.y + NODE_H / 2 + lane + jitter * 0.9;
    if (here.until !== undefined && next) {
      const depart = next.arrive - HOP_MS_OF(next, here);
      const f = Math.max(0, Math.min(1, (p - here.arrive) / Math.max(1, depart - here.arrive)));
      return { x, y, wait: f, remaining: (here.until - here.t) * (1 - f), node: here.node };
    }
    if (here.until !== undefined && !next) return { x, y, wait: 0, remaining: here.until - here.t, node: here.node };
    return { x, y };
  }

  /**
   * One countdown per waiting node, under the node's right end (the simulated run's row above the
   * live one's): tokens waiting side by side used to print their countdowns over each other.
   */
  private drawCountdowns(byNode: ReadonlyMap<string, { next: number; n: number }>, lane: number): void {
    const ctx = this.ctx;
    ctx.font = '11px ui-monospace, monospace';
    const row = lane > 0 ? 1 : 0;
    for (const [node, w] of byNode) {
      const pos = this.src.nodePos(node);
      if (!pos) continue;
      const text = `${fmtMs(w.next)} left${w.n > 1 ? ` · ${w.n} waiting` : ''}`;
      const width = ctx.measureText(text).width + 8;
      const x = pos.x + NODE_W - width;
      const y = pos.y + NODE_H + 4 + row * 17;
      ctx.fillStyle = 'rgba(2,6,23,0.85)';
      ctx.fillRect(x, y, width, 15);
      ctx.fillStyle = '#fde68a';
      ctx.fillText(text, x + 4, y + 11);
    }
  }

  private drawDivergence(): void {
    const id = this.src.divergence();
    const pos = id ? this.src.nodePos(id) : undefined;
    if (!pos) return;
    const ctx = this.ctx;
    const pulse = 4 + 3 * Math.sin(performance.now() / 200);
    ctx.strokeStyle = '#f97316';
    ctx.lineWidth = 3;
    ctx.setLineDash([6, 4]);
    ctx.strokeRect(pos.x - 6 - pulse, pos.y - 6 - pulse, NODE_W + 12 + 2 * pulse, NODE_H + 12 + 2 * pulse);
    ctx.setLineDash([]);
    ctx.fillStyle = '#f97316';
    ctx.font = 'bold 12px ui-sans-serif, system-ui';
    ctx.fillText('first divergence', pos.x, pos.y + NODE_H + 24);
  }

  /**
   * One depth counter per queue in view. Zoomed out (no text) the boxes go into two batched paths, busy
   * and empty: 2,000 queues filled one by one, each with its own fill colour, cost 2 ms a frame.
   */
  private drawDepths(plan: PlaybackPlan, view: { x0: number; y0: number; x1: number; y1: number }): void {
    const ctx = this.ctx;
    const p = this.player.p;
    ctx.font = 'bold 11px ui-sans-serif, system-ui';
    const busy = this.detailed ? null : new Path2D();
    const idle = this.detailed ? null : new Path2D();
    for (const [queue, s] of plan.depth) {
      const pos = this.src.nodePos(`queue:${queue}`);
      if (!pos || pos.x > view.x1 || pos.y > view.y1 || pos.x + NODE_W < view.x0 || pos.y + NODE_H < view.y0) continue;
      const k = floorIndex(s.at, p);
      const d = k < 0 ? 0 : s.depth[k]!;
      const x = pos.x + NODE_W - 4;
      const y = pos.y - 8;
      if (busy && idle) {
        (d > 0 ? busy : idle).rect(x - 22, y - 9, 22, 18);
        continue;
      }
      const label = String(d);
      const w = Math.max(22, label.length * 7 + 12);
      ctx.fillStyle = d > 0 ? '#0ea5e9' : '#334155';
      ctx.fillRect(x - w, y - 9, w, 18);
      ctx.fillStyle = '#fff';
      ctx.fillText(label, x - w + 6, y + 4);
    }
    if (busy && idle) {
      ctx.fillStyle = '#334155';
      ctx.fill(idle);
      ctx.fillStyle = '#0ea5e9';
      ctx.fill(busy);
    }
  }
}

/** Moves take one hop; a move right after arriving (same instant) can take less. */
/** how long the hop into `next` is drawn: its own length (shorter in broker time), never more than the time between the stops */
function HOP_MS_OF(next: { arrive: number; hop: number }, here: { arrive: number }): number {
  return Math.min(next.hop, next.arrive - here.arrive);
}

function easeInOut(u: number): number {
  return u < 0.5 ? 2 * u * u : 1 - Math.pow(-2 * u + 2, 2) / 2;
}

function fmtMs(ms: number): string {
  if (ms >= 60000) return `${(ms / 60000).toFixed(1)}m`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.round(ms)}ms`;
}
