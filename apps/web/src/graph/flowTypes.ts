import type { Edge, Node, NodeHandle, Position } from '@xyflow/react';
import type {
  ConsumerSpec,
  EffectiveSettings,
  ExchangeDef,
  PublisherSpec,
  QueueDef,
} from '@retry-studio/topology-core/model';
import type { EdgeKind } from '../model/edgeIds';

/** Node sizes are fixed so edge geometry (and token paths) never waits for a DOM measure. */
export const NODE_W = 190;
export const NODE_H = 76;

/**
 * Where each kind's handles sit on its face (nodes.tsx: 10 px handles on the left, right and, for an
 * exchange, bottom edge), as React Flow measures them. Declared, React Flow knows a node's handles
 * without mounting it: with `onlyRenderVisibleElements` it otherwise mounts every node of the design
 * once to measure them (5,005 DOM nodes, 3 s, on opening or first zooming into a big design).
 */
// React Flow's `Position` values as literals: graph/ is read by the import worker, which has no React Flow
const LEFT = 'left' as Position.Left;
const RIGHT = 'right' as Position.Right;
const BOTTOM = 'bottom' as Position.Bottom;
const h = (id: string, type: 'source' | 'target', position: Position, x: number, y: number): NodeHandle => ({
  id,
  type,
  position,
  x,
  y,
  width: 10,
  height: 10,
});
const IN = h('in', 'target', LEFT, -3, NODE_H / 2 - 5);
const OUT = h('out', 'source', RIGHT, NODE_W - 7, NODE_H / 2 - 5);
export const NODE_HANDLES: Readonly<Record<DesignNodeData['kind'], NodeHandle[]>> = {
  exchange: [IN, OUT, h('ae', 'source', BOTTOM, NODE_W / 2 - 5, NODE_H - 7)],
  queue: [IN, OUT],
  consumer: [IN, OUT],
  publisher: [OUT],
};

export type Severity = 'error' | 'warning' | 'info';

interface Common extends Record<string, unknown> {
  /** worst lint finding on this node, for its marker */
  lint?: Severity;
  /** number of findings */
  lintCount?: number;
  /** highlighted as part of the inspected message's path */
  onPath?: boolean;
}

export type DesignNodeData =
  /**
   * `settings`: the effective settings (arguments and policies), what chips and edges show; `assumed`: the
   * import's stand-in publishers folded into this node (model/assumedActors.ts); a consumer's `assumed`: it is
   * the assumption's worker
   */
  | (Common & {
      kind: 'exchange';
      def: ExchangeDef;
      settings: EffectiveSettings['settings'];
      assumed?: readonly PublisherSpec[];
    })
  | (Common & {
      kind: 'queue';
      def: QueueDef;
      settings: EffectiveSettings['settings'];
      assumed?: readonly PublisherSpec[];
    })
  | (Common & { kind: 'consumer'; def: ConsumerSpec; assumed?: boolean })
  | (Common & { kind: 'publisher'; def: PublisherSpec });

export type DesignNode = Node<DesignNodeData, DesignNodeData['kind']>;

export interface DesignEdgeData extends Record<string, unknown> {
  kind: EdgeKind;
  label: string;
  /** the setting the edge draws comes from a policy (dead-letter exchange, alternate exchange): its name */
  policy?: string;
  onPath?: boolean;
  /** where the label sits on the curve (0..1) and above/below it, chosen so labels do not stack */
  labelT?: number;
  labelDy?: number;
  /** no free spot for the label: drawn only hovered (labelPlacement.ts) */
  labelCrowded?: boolean;
}

export type DesignEdge = Edge<DesignEdgeData, 'design'>;
