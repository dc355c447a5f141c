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

export function layoutByPrefix(design: Pick<Design, 'topology' | 'consumers' | 'publishers'>): PrefixLayout {
  const groups = groupNodesByPrefix(design);
  const kindCol = (id: string): number => (id.startsWith('publisher:') ? 0 : id.startsWith('exchange:') ? 1 : id.startsWith('queue:') ? 2 : 3);
  const perShelf = Math.max(2, Math.ceil(Math.sqrt(groups.length / 2)));
  const blockW = 4 * LAYOUT_COLUMN_W + BLOCK_GAP;
  const positions: Record<string, NodePosition> = {};
  let shelfY = 0;
  let shelfH = 0;
  groups.forEach((g, i) => {
    const col = i % perShelf;
    if (col === 0 && i > 0) {
      shelfY += shelfH + BLOCK_GAP;
      shelfH = 0;
    }
    const rows = [0, 0, 0, 0];
    for (const id of g.nodes) {
      const k = kindCol(id);
      positions[id] = { x: col * blockW + k * LAYOUT_COLUMN_W, y: shelfY + (rows[k] as number) * LAYOUT_ROW_H };
      rows[k] = (rows[k] as number) + 1;
    }
    shelfH = Math.max(shelfH, Math.max(...rows) * LAYOUT_ROW_H);
  });
  return { positions, groups };
}

/** A design too large to draw at once, cut to one name-prefix group (its objects, and what they bind to or dead-letter into). */
export function designGroup(design: Design, key: string): Design {
  const t = design.topology;
  const inGroup = (n: string): boolean => namePrefix(n) === key;
  const queues = new Set(t.queues.filter((q) => inGroup(q.name)).map((q) => q.name));
  const exchanges = new Set(t.exchanges.filter((x) => inGroup(x.name)).map((x) => x.name));
  const bindings = t.bindings.filter((b) => exchanges.has(b.source) || (b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination)));
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
    bindings: bindings.filter((b) => exchanges.has(b.source) && (b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination))),
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
