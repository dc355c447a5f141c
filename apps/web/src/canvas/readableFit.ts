/**
 * The view a design opens with: all of it, fitted into the canvas (a template, a reload, an
 * import, a design from My designs). Node text keeps its size on screen while the view is zoomed
 * out (TextScale below sets `--ts`, which the node faces multiply their font sizes by), so a
 * seven-column template fitted into an 800 px canvas stays readable. Only a design too large to
 * fit even at MIN_OPEN_ZOOM opens at that zoom from the flow's start (its left edge).
 */
import { useEffect, type RefObject } from 'react';
import { useStore, type ReactFlowInstance } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';

/** a real 19-queue file with a publisher per binding key (about 40 boxes in a column) needs 0.18 at 1280x800 */
export const MIN_OPEN_ZOOM = 0.15;
/** how far node text grows against the zoom: 11 px node text stays 11 px on screen down to zoom 1/2.6 (a seven-column template in an 800 px canvas) */
export const MAX_TEXT_SCALE = 2.6;
const PADDING = 32;
const MAX_ZOOM = 1.2;

/** the minimap's corner (160 x 100 at 15 px from the bottom right, Canvas.tsx): a fitted design stays clear of it */
const MINIMAP_CORNER = { width: 175, height: 115 };

export function readableFit(rf: ReactFlowInstance<DesignNode, DesignEdge>, canvas: { width: number; height: number }): void {
  const nodes = rf.getNodes();
  if (!nodes.length || canvas.width <= 0 || canvas.height <= 0) return;
  const b = rf.getNodesBounds(nodes);
  const fitIn = (a: { width: number; height: number }) => Math.min((a.width - 2 * PADDING) / b.width, (a.height - 2 * PADDING) / b.height, MAX_ZOOM);
  // above the minimap (a wide design loses nothing: it moves up) or left of it (a tall one), whichever shows it larger;
  // fitted into the whole canvas, the last column of a template sat under the minimap
  const above = { width: canvas.width, height: canvas.height - MINIMAP_CORNER.height };
  const beside = { width: canvas.width - MINIMAP_CORNER.width, height: canvas.height };
  const pane = fitIn(above) >= fitIn(beside) ? above : beside;
  const fit = fitIn(pane);
  const zoom = Math.max(fit, MIN_OPEN_ZOOM);
  // centred on the axis that fits, anchored at the start (left / top) on the one that does not
  const x = b.width * zoom <= pane.width - 2 * PADDING ? (pane.width - b.width * zoom) / 2 - b.x * zoom : PADDING - b.x * zoom;
  const y = b.height * zoom <= pane.height - 2 * PADDING ? (pane.height - b.height * zoom) / 2 - b.y * zoom : PADDING - b.y * zoom;
  void rf.setViewport({ x, y, zoom });
}

/** `--ts` on the canvas: 1 at zoom 1 and above, 1/zoom below (up to MAX_TEXT_SCALE), and `--rows`. No node re-renders: CSS does it. */
export function useTextScale(box: RefObject<HTMLElement | null>): void {
  // in steps of 0.05, rounded up (11 px × ts × zoom never comes out under 11): a zoom gesture restyles the node text
  // a few times, not on every frame, and not at all at zoom 1 and above
  const ts = useStore((s) => Math.ceil(Math.min(MAX_TEXT_SCALE, Math.max(1, 1 / s.transform[2])) * 20) / 20);
  useEffect(() => {
    box.current?.style.setProperty('--ts', String(ts));
    // the rows of chips (or behaviour lines) a node face has room for at that text size: whole rows, never half of one;
    // zoomed far out a node shows its name only
    box.current?.style.setProperty('--rows', ts <= 1.02 ? '2' : ts <= 1.85 ? '1' : '0');
  }, [ts, box]);
}
