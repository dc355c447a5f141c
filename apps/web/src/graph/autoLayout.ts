/**
 * Auto-layout with elkjs (layered, left to right) over the design's flow (flowOrder.ts): every
 * edge a message can take, with the loops broken where they close, so entry exchanges come
 * first and dead-letter and parking queues last. The gap between columns fits the longest edge
 * label, so labels have room between the boxes.
 */
import type { ELK as ElkApi } from 'elkjs/lib/elk-api';
import type { Design, NodePosition } from '@retry-studio/topology-core/model';
import { layoutByPrefix } from '@retry-studio/topology-core/operate';
import { NODE_H, NODE_W } from './flowTypes';
import { FlowMapper } from './designToFlow';
import { flowOrder } from './flowOrder';
import { LABEL_MAX_SCALE, labelSize } from './labelPlacement';
import { componentsOf, openingZoom, packToShape, packToWidth } from './packComponents';
import { readableZoom, READABLE_MAX_NODES } from './readableZoom';
import { FIT_PADDING, MINIMAP_ROOM } from './openingFit';
import { LAYERED_MAX_NODES, nodeCount } from '../model/designSize';

let elk: ElkApi | null = null;

/**
 * ELK is large: loaded on first use, not with the app. Where there are workers it runs in one of its own
 * (its layout of a few hundred nodes held the page; and its bundled build, loaded inside the import worker,
 * takes that worker's messages for its own); elsewhere (unit tests) bundled.
 */
async function loadElk(): Promise<ElkApi> {
  if (typeof Worker === 'undefined') {
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    return new ELK();
  }
  const [{ default: ELK }, { default: url }] = await Promise.all([
    import('elkjs/lib/elk-api.js'),
    import('elkjs/lib/elk-worker.min.js?url'),
  ]);
  return new ELK({ workerFactory: () => new Worker(url) });
}

/**
 * Column gap: room for a label between two boxes, within reason, at the size a fitted (zoomed-out)
 * view draws it (LABEL_MAX_SCALE): a 25-character routing key did not fit in 200 px and sat under the boxes.
 */
export function layerGap(labels: readonly string[]): number {
  const widest = Math.max(0, ...labels.map((l) => labelSize(l).w * LABEL_MAX_SCALE));
  return Math.min(280, Math.max(80, Math.round(widest + 30)));
}

/**
 * Above LAYERED_MAX_NODES the nodes are laid out in name-prefix blocks (the core's layoutByPrefix, a vhost
 * import's layout), which the canvas's overview also groups by.
 */
export { LAYERED_MAX_NODES };

/** the canvas a design opens in (CSS px): the layout aims at its shape */
export interface LayoutShape {
  readonly width: number;
  readonly height: number;
}

export async function layoutDesign(design: Design, shape?: LayoutShape): Promise<Record<string, NodePosition>> {
  if (nodeCount(design) > LAYERED_MAX_NODES) {
    const aspect = shape && shape.width > 0 && shape.height > 0 ? shape.width / shape.height : undefined;
    return layoutByPrefix(design, aspect !== undefined ? { aspect } : {}).positions;
  }
  elk ??= await loadElk();
  const mapper = new FlowMapper();
  const nodes = mapper.nodesOf(design);
  const edges = mapper.edgesOf(design);
  const order = flowOrder(
    nodes.map((n) => n.id),
    edges.map((e) => ({ id: e.id, source: e.source, target: e.target, kind: e.data!.kind })),
  );
  const constraint = (id: string) =>
    order.first.has(id)
      ? { 'elk.layered.layering.layerConstraint': 'FIRST' }
      : order.last.has(id)
        ? { 'elk.layered.layering.layerConstraint': 'LAST' }
        : undefined;
  const graph = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(layerGap(edges.map((e) => e.data?.label ?? ''))),
      'elk.spacing.nodeNode': '40',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      // balanced: a fan-in and fan-out (13 queues -> one DLX -> 13 DLQs) keeps each DLQ level with its queue (half the height)
      'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children: nodes.map((n) => {
      const layoutOptions = constraint(n.id);
      return { id: n.id, width: NODE_W, height: NODE_H, ...(layoutOptions ? { layoutOptions } : {}) };
    }),
    edges: order.forward.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const out = await elk.layout(graph);
  const pos: Record<string, NodePosition> = {};
  for (const c of out.children ?? []) pos[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  if (!shape) return pos;
  // its layers wrapped into bands to take the canvas's shape (a long chain opened as one unreadable row), its
  // unconnected parts packed in rows
  const parts = componentsOf(Object.keys(pos), edges);
  const packed = packToShape(pos, parts, shape);
  if (nodes.length > READABLE_MAX_NODES) return packed;
  // names that read only closer than the fitted zoom: the design opens on a part of it at the zoom where they do,
  // its rows as wide as the canvas left of the minimap's strip (the minimap shows the rest)
  const fitted = openingZoom(packed, shape);
  const zoom = readableZoom(nodes, fitted);
  if (zoom <= fitted) return packed;
  return packToWidth(packed, parts, (shape.width - MINIMAP_ROOM.width - 2 * FIT_PADDING) / zoom);
}
