/**
 * The view a design opens with: everything fitted when that keeps node text readable, else 100 %
 * zoom from the flow's start (its left edge), the rest a pan away. Fitting a seven-column template
 * into an 800 px canvas shrank 11 px node text to about 6 px.
 */
import type { ReactFlowInstance } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';

/** the smallest node text is 11 px: below zoom 1 it is smaller than that */
export const READABLE_ZOOM = 1;
const PADDING = 40;
const MAX_ZOOM = 1.2;

export function readableFit(rf: ReactFlowInstance<DesignNode, DesignEdge>, pane: { width: number; height: number }): void {
  const nodes = rf.getNodes();
  if (!nodes.length || pane.width <= 0 || pane.height <= 0) return;
  const b = rf.getNodesBounds(nodes);
  const fit = Math.min((pane.width - 2 * PADDING) / b.width, (pane.height - 2 * PADDING) / b.height, MAX_ZOOM);
  const zoom = Math.max(fit, READABLE_ZOOM);
  // centred on the axis that fits, anchored at the start (left / top) on the one that does not
  const x = b.width * zoom <= pane.width - 2 * PADDING ? (pane.width - b.width * zoom) / 2 - b.x * zoom : PADDING - b.x * zoom;
  const y = b.height * zoom <= pane.height - 2 * PADDING ? (pane.height - b.height * zoom) / 2 - b.y * zoom : PADDING - b.y * zoom;
  void rf.setViewport({ x, y, zoom });
}
