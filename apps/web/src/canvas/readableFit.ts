/**
 * The view a design opens with: all of it, fitted into the canvas (a template, a reload, an
 * import, a design from My designs). Node text keeps its size on screen while the view is zoomed
 * out (TextScale below sets `--ts`, which the node faces multiply their font sizes by), so a
 * seven-column template fitted into an 800 px canvas stays readable. Every design opens whole: one
 * too large to read whole opened at 0.15 from its start, with its end off the canvas (a real 50-box
 * file at 1280x800); now it opens fitted and the names come back as one zooms in (a big design is
 * drawn as its overview when zoomed out, overviewModel.ts).
 */
import { useEffect, type RefObject } from 'react';
import { getNodesBounds, useStore, type ReactFlowInstance } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { lodOf } from './faceFit';
import { LABEL_MAX_SCALE } from '../graph/labelPlacement';
import { FIT_PADDING, MINIMAP_ROOM, MINIMAP_SIZE, openingFit } from '../graph/openingFit';

/** the smallest zoom a fit goes to */
const MIN_FIT_ZOOM = 0.002;
/** how far node text grows against the zoom: 11 px node text stays 11 px on screen down to zoom 1/2.6 (a seven-column template in an 800 px canvas) */
export const MAX_TEXT_SCALE = 2.6;
const PADDING = FIT_PADDING;
export { MINIMAP_SIZE };

export function readableFit(
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  canvas: { width: number; height: number },
): void {
  const v = readableViewport(rf, canvas);
  if (v) void rf.setViewport(v);
}

/** the opening view readableFit sets */
export function readableViewport(
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  canvas: { width: number; height: number },
): { x: number; y: number; zoom: number } | null {
  return openingViewport(rf.getNodes(), canvas);
}

/** the opening view of these nodes (React Flow's or the design's own, before React Flow has them: Canvas opens at it) */
export function openingViewport(
  nodes: readonly DesignNode[],
  canvas: { width: number; height: number },
): { x: number; y: number; zoom: number } | null {
  if (!nodes.length || canvas.width <= 0 || canvas.height <= 0) return null;
  // declared sizes, not measured ones: the overview's nodes are hidden and never measured
  const b = getNodesBounds([...nodes]);
  const { zoom: fit, pane } = openingFit(b, canvas);
  const zoom = Math.max(fit, MIN_FIT_ZOOM);
  // centred on the axis that fits, anchored at the start (left / top) on the one that does not
  const x =
    b.width * zoom <= pane.width - 2 * PADDING ? (pane.width - b.width * zoom) / 2 - b.x * zoom : PADDING - b.x * zoom;
  const y =
    b.height * zoom <= pane.height - 2 * PADDING
      ? (pane.height - b.height * zoom) / 2 - b.y * zoom
      : PADDING - b.y * zoom;
  return { x, y, zoom };
}

/**
 * The view that brings a set of nodes into view (a lint finding, a search result): centred on them, as
 * close as zoom 1 and no closer; a spread too wide for the overview's threshold shows them in the overview.
 */
export function focusViewport(
  b: { x: number; y: number; width: number; height: number },
  canvas: { width: number; height: number },
): { x: number; y: number; zoom: number } {
  const room = {
    width: Math.max(1, canvas.width - 2 * PADDING - MINIMAP_ROOM.width),
    height: Math.max(1, canvas.height - 2 * PADDING),
  };
  const zoom = Math.max(0.002, Math.min(1, room.width / Math.max(1, b.width), room.height / Math.max(1, b.height)));
  return {
    x: (canvas.width - MINIMAP_ROOM.width) / 2 - (b.x + b.width / 2) * zoom,
    y: canvas.height / 2 - (b.y + b.height / 2) * zoom,
    zoom,
  };
}

/** `--ts` on the canvas: 1 at zoom 1 and above, 1/zoom below (up to MAX_TEXT_SCALE), and `data-lod`. No node re-renders: CSS does it. */
export function useTextScale(box: RefObject<HTMLElement | null>): void {
  // in steps of 0.05, rounded up (11 px × ts × zoom never comes out under 11): a zoom gesture restyles the node text
  // a few times, not on every frame, and not at all at zoom 1 and above
  const ts = useStore((s) => Math.ceil(Math.min(MAX_TEXT_SCALE, Math.max(1, 1 / s.transform[2])) * 20) / 20);
  // 1/zoom without a cap, in steps: an edge label hovered is 12 px on screen at any zoom (index.css)
  const iz = useStore((s) => Math.ceil((1 / s.transform[2]) * 20) / 20);
  // edge labels grow against the zoom up to LABEL_MAX_SCALE: below the zoom that keeps them 9 px on screen they
  // are shown only hovered (at 12 px), never drawn smaller (7 px labels on a fitted template)
  const smallLabels = useStore(
    (s) => 11 * Math.min(Math.max(1, 1 / s.transform[2]), LABEL_MAX_SCALE) * s.transform[2] < 9,
  );
  useEffect(() => {
    box.current?.style.setProperty('--iz', String(iz));
  }, [iz, box]);
  useEffect(() => {
    if (smallLabels) box.current?.setAttribute('data-edge-labels', 'small');
    else box.current?.removeAttribute('data-edge-labels');
  }, [smallLabels, box]);
  useEffect(() => {
    box.current?.style.setProperty('--ts', String(ts));
    // the text-size level the node faces show their chips for (faceFit.ts; index.css shows the matching `face-lod-*`)
    box.current?.setAttribute('data-lod', lodOf(ts));
  }, [ts, box]);
}
