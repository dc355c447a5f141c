/**
 * A layout that stays fast for thousands of nodes (a layered layout of 5,000 queues takes
 * minutes): nodes grouped by name prefix, each group a block with one column per kind
 * (publishers, exchanges, queues, consumers), blocks packed in shelves. The canvas can collapse
 * a group to one node with the same grouping.
 */
import type { Design, NodePosition } from '../model/design.js';
import { consumerNodeId, exchangeNodeId, publisherNodeId, queueNodeId, type NodeId } from '../model/nodeIds.js';
import { namePrefix } from './namePrefix.js';
import { queueEffectiveSettings } from '../model/effectiveSettings.js';
import { clusterNodes } from './nodeGroups.js';

export const LAYOUT_COLUMN_W = 240;
export const LAYOUT_ROW_H = 100;
const BLOCK_GAP = 80;

export interface NodeGroup {
  /** the name prefix */
  readonly key: string;
  readonly nodes: readonly NodeId[];
  readonly queues: number;
}

export interface PrefixLayout {
  readonly positions: Record<string, NodePosition>;
  readonly groups: readonly NodeGroup[];
}

/** Node id -> group key (name prefix; consumers follow their queue, publishers their exchange). */
export function groupNodesByPrefix(design: Pick<Design, 'topology' | 'consumers' | 'publishers'>): NodeGroup[] {
  const cols = new Map<string, NodeId[][]>();
  const add = (key: string, col: number, id: NodeId): void => {
    let c = cols.get(key);
    if (!c) cols.set(key, (c = [[], [], [], []]));
    (c[col] as NodeId[]).push(id);
  };
  for (const p of design.publishers) add(namePrefix(p.exchange), 0, publisherNodeId(p.id));
  for (const x of design.topology.exchanges) add(namePrefix(x.name), 1, exchangeNodeId(x.name));
  for (const q of design.topology.queues) add(namePrefix(q.name), 2, queueNodeId(q.name));
  for (const c of design.consumers) add(namePrefix(c.queue), 3, consumerNodeId(c.id));
  return [...cols.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, c]) => ({ key, nodes: c.flat(), queues: (c[2] as NodeId[]).length }));
}

/** blocks in shelves no wider than `width`: each block's top-left and the whole's size */
function pack(blocks: readonly { w: number; h: number }[], width: number) {
  const at: { x: number; y: number }[] = [];
  let x = 0,
    y = 0,
    shelfH = 0,
    w = 0;
  for (const b of blocks) {
    if (x > 0 && x + b.w > width) {
      y += shelfH;
      x = 0;
      shelfH = 0;
    }
    at.push({ x, y });
    x += b.w;
    w = Math.max(w, x);
    shelfH = Math.max(shelfH, b.h);
  }
  return { at, w, h: y + shelfH };
}

/** a shelf width that packs these blocks near `aspect` (never narrower than the widest) */
const shelfWidth = (blocks: readonly { w: number; h: number }[], aspect: number) =>
  Math.max(Math.sqrt(blocks.reduce((s, b) => s + b.w * b.h, 0) * aspect), ...blocks.map((b) => b.w));

/** a cluster's leaves packed near this shape: a block the overview frames and labels */
const CLUSTER_ASPECT = 1.6;
const CLUSTER_GAP = 160;

const kindCol = (id: string): number =>
  id.startsWith('publisher:') ? 0 : id.startsWith('exchange:') ? 1 : id.startsWith('queue:') ? 2 : 3;

/**
 * `aspect`: the width/height the whole layout aims at (the canvas it opens in; about 2 on a laptop's designer).
 * Nodes are placed by leaf group (nodeGroups.ts: a block with one column per kind), leaves packed into their
 * cluster's block, clusters packed in shelves. Each leaf's kind columns wrap at the same number of rows,
 * chosen among a few so the whole comes closest to that shape: one column of 2,500 queues per team made a
 * 1,000-queue file a strip 40 times taller than wide, fitted at a zoom no name or group label could be read at.
 */
export function layoutByPrefix(
  design: Pick<Design, 'topology' | 'consumers' | 'publishers'>,
  opts: { readonly aspect?: number } = {},
): PrefixLayout {
  const clusters = clusterNodes(design);
  const aspect = opts.aspect && opts.aspect > 0 ? opts.aspect : 2;
  const counts = clusters.map((c) =>
    c.leaves.map((l) => {
      const n = [0, 0, 0, 0];
      for (const id of l.nodes) n[kindCol(id)]!++;
      return n;
    }),
  );
  const tallest = Math.max(1, ...counts.flat(2));
  /** a leaf's block with its columns wrapped at `rows` */
  const blockOf = (c: number[], rows: number) => ({
    cols: c.map((n) => Math.ceil(n / rows)),
    w: c.reduce((s, n) => s + Math.ceil(n / rows), 0) * LAYOUT_COLUMN_W + BLOCK_GAP,
    h: Math.max(...c.map((n) => Math.min(n, rows))) * LAYOUT_ROW_H + BLOCK_GAP,
  });
  const arrange = (rows: number) => {
    const leaves = counts.map((cs) => cs.map((c) => blockOf(c, rows)));
    const inner = leaves.map((ls) => pack(ls, shelfWidth(ls, CLUSTER_ASPECT)));
    const outer = pack(
      inner.map((p) => ({ w: p.w + CLUSTER_GAP, h: p.h + CLUSTER_GAP })),
      shelfWidth(
        inner.map((p) => ({ w: p.w + CLUSTER_GAP, h: p.h + CLUSTER_GAP })),
        aspect,
      ),
    );
    const area = leaves.flat().reduce((s, b) => s + b.w * b.h, 0);
    // off the aimed shape, and room wasted around the blocks (both as ratios)
    const score = Math.abs(Math.log(outer.w / outer.h / aspect)) + Math.log((outer.w * outer.h) / area);
    return { rows, leaves, inner, outer, score };
  };
  let best: ReturnType<typeof arrange> | undefined;
  const tried = new Set<number>();
  for (let r = tallest; ; r = Math.min(r - 1, Math.ceil(r / 1.5))) {
    if (!tried.has(r)) {
      tried.add(r);
      const a = arrange(r);
      if (!best || a.score < best.score - 1e-9) best = a;
    }
    if (r === 1) break;
  }
  const positions: Record<string, NodePosition> = {};
  clusters.forEach((c, ci) => {
    const cAt = best!.outer.at[ci]!;
    c.leaves.forEach((l, li) => {
      const { cols } = best!.leaves[ci]![li]!;
      const lAt = best!.inner[ci]!.at[li]!;
      const seen = [0, 0, 0, 0];
      for (const id of l.nodes) {
        const k = kindCol(id);
        const j = seen[k]!++;
        const colBefore = cols.slice(0, k).reduce((s, n) => s + n, 0);
        positions[id] = {
          x: cAt.x + lAt.x + (colBefore + Math.floor(j / best!.rows)) * LAYOUT_COLUMN_W,
          y: cAt.y + lAt.y + (j % best!.rows) * LAYOUT_ROW_H,
        };
      }
    });
  });
  return { positions, groups: groupNodesByPrefix(design) };
}

/** A design too large to draw at once, cut to one name-prefix group (its objects, and what they bind to or dead-letter into). */
export function designGroup(design: Design, key: string): Design {
  const t = design.topology;
  const inGroup = (n: string): boolean => namePrefix(n) === key;
  const queues = new Set(t.queues.filter((q) => inGroup(q.name)).map((q) => q.name));
  const exchanges = new Set(t.exchanges.filter((x) => inGroup(x.name)).map((x) => x.name));
  const bindings = t.bindings.filter(
    (b) =>
      exchanges.has(b.source) ||
      (b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination)),
  );
  // the other end of each binding comes along, so every edge has both ends
  for (const b of bindings) {
    exchanges.add(b.source);
    if (b.destination_type === 'queue') queues.add(b.destination);
    else exchanges.add(b.destination);
  }
  for (const q of t.queues) {
    const dlx = queues.has(q.name) ? queueEffectiveSettings(q, t).settings['x-dead-letter-exchange']?.value : undefined;
    if (typeof dlx === 'string' && t.exchanges.some((x) => x.name === dlx)) exchanges.add(dlx);
  }
  const topology = {
    exchanges: t.exchanges.filter((x) => exchanges.has(x.name)),
    queues: t.queues.filter((q) => queues.has(q.name)),
    bindings: bindings.filter(
      (b) =>
        exchanges.has(b.source) &&
        (b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination)),
    ),
    ...(t.policies ? { policies: t.policies } : {}),
  };
  const sub: Design = {
    ...design,
    name: `${design.name} · ${key}`,
    topology,
    consumers: design.consumers.filter((c) => queues.has(c.queue)),
    publishers: design.publishers.filter((p) => exchanges.has(p.exchange)),
  };
  return { ...sub, layout: layoutByPrefix(sub).positions };
}
