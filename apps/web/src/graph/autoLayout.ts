/**
 * Auto-layout with elkjs (layered, left to right). Dead-letter and republish edges point
 * backwards in a retry loop; ELK's cycle breaking handles them, and we feed only the forward
 * kinds as layering constraints so the main flow reads left to right.
 */
import type { ELK as ElkApi } from 'elkjs/lib/elk-api';
import type { Design, NodePosition } from '@retry-studio/topology-core';
import { NODE_H, NODE_W } from './flowTypes';
import { FlowMapper } from './designToFlow';

let elk: ElkApi | null = null;

export async function layoutDesign(design: Design): Promise<Record<string, NodePosition>> {
  if (!elk) {
    // elk is large: loaded on first use, not with the app
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    elk = new ELK();
  }
  const mapper = new FlowMapper();
  const nodes = mapper.nodesOf(design);
  const edges = mapper.edgesOf(design);
  const graph = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '90',
      'elk.spacing.nodeNode': '36',
      'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    },
    children: nodes.map((n) => ({ id: n.id, width: NODE_W, height: NODE_H })),
    edges: edges
      .filter((e) => e.data?.kind !== 'deadLetter' && e.data?.kind !== 'republish')
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const out = await elk.layout(graph);
  const pos: Record<string, NodePosition> = {};
  for (const c of out.children ?? []) pos[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return pos;
}
