/**
 * The view a design opens with: all of it, fitted into the canvas (a template, a reload, an
 * import, a design from My designs). Node text keeps its size on screen while the view is zoomed
 * out (TextScale below sets `--ts`, which the node faces multiply their font sizes by), so a
 * seven-column template fitted into an 800 px canvas stays readable. A design opens whole where its
 * names read there at 9 px; one of up to 60 nodes whose names do not opens at the zoom where they do
 * (readableZoom.ts), from its start, the minimap showing the rest; a bigger one opens fitted, drawn as its
 * overview with its groups labelled (overviewModel.ts), one click from names.
 */
import { useEffect, type RefObject } from 'react';
import { getNodesBounds, useStore, type ReactFlowInstance } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { lodOf, textScaleAt } from '../graph/faceFit';
import { LABEL_MAX_SCALE } from '../graph/labelPlacement';
import { OVERVIEW_MIN_NODES } from './overviewModel';
import { readableZoom } from '../graph/readableZoom';
import { FIT_PADDING, MINIMAP_ROOM, MINIMAP_SIZE, minimapFits, openingFit, type Size } from '../graph/openingFit';

/** the smallest zoom a fit goes to */
const MIN_FIT_ZOOM = 0.002;
const PADDING = FIT_PADDING;
export { MINIMAP_SIZE };

export function readableFit(
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  canvas: { width: number; height: number },
  whole = false,
): void {
  const v = readableViewport(rf, canvas, whole);
  if (v) void rf.setViewport(v);
}

/** the opening view readableFit sets */
export function readableViewport(
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  canvas: { width: number; height: number },
  whole = false,
): OpeningViewport | null {
  return openingViewport(rf.getNodes(), canvas, whole);
}

/** an opening view; `whole`: the design is all in it (else the rest is a pan away: the minimap shows) */
export interface OpeningViewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
  readonly whole: boolean;
}

/**
 * The opening view of these nodes (React Flow's or the design's own, before React Flow has them: Canvas opens at
 * it); `whole`: all of the design, however small its names (the Fit view command).
 */
export function openingViewport(
  nodes: readonly DesignNode[],
  canvas: { width: number; height: number },
  whole = false,
): OpeningViewport | null {
  if (!nodes.length || canvas.width <= 0 || canvas.height <= 0) return null;
  // declared sizes, not measured ones: the overview's nodes are hidden and never measured
  const b = getNodesBounds([...nodes]);
  const { zoom: fit, pane } = openingFit(b, canvas);
  // up to 60 nodes the names read at the opening zoom (readableZoom.ts); past that the overview labels the groups
  const fitted = Math.max(fit, MIN_FIT_ZOOM);
  const zoom = !whole && nodes.length < OVERVIEW_MIN_NODES ? readableZoom(nodes, fitted) : fitted;
  const fits = (room: Size) => ({
    wide: b.width * zoom <= room.width - 2 * PADDING,
    high: b.height * zoom <= room.height - 2 * PADDING,
  });
  const inPane = fits(pane);
  const all = inPane.wide && inPane.high;
  // on a part of the design the minimap shows the rest: what fits beside its strip (a layout kept that narrow,
  // graph/autoLayout.ts) or above it is placed there, not under it
  const beside = { width: canvas.width - MINIMAP_ROOM.width, height: canvas.height };
  const above = { width: canvas.width, height: canvas.height - MINIMAP_ROOM.height };
  const room = all || !minimapFits(canvas) ? pane : fits(beside).wide ? beside : above;
  const inRoom = fits(room);
  // centred on the axis that fits, anchored at the start (left / top: the flow's entry) on the one that does not
  const x = inRoom.wide ? (room.width - b.width * zoom) / 2 - b.x * zoom : PADDING - b.x * zoom;
  const y = inRoom.high ? (room.height - b.height * zoom) / 2 - b.y * zoom : PADDING - b.y * zoom;
  return { x, y, zoom, whole: all };
}

/**
 * The view that brings a set of nodes into view (a lint finding, a search result): centred on them, as
 * close as zoom 1 and no closer; a spread too wide for the overview's threshold shows them in the overview.
 */
export function focusViewport(
  b: { x: number; y: number; width: number; height: number },
  canvas: { width: number; height: number },
): { x: number; y: number; zoom: number } {
  const map = minimapFits(canvas) ? MINIMAP_ROOM.width : 0;
  const room = {
    width: Math.max(1, canvas.width - 2 * PADDING - map),
    height: Math.max(1, canvas.height - 2 * PADDING),
  };
  const zoom = Math.max(0.002, Math.min(1, room.width / Math.max(1, b.width), room.height / Math.max(1, b.height)));
  return {
    x: (canvas.width - map) / 2 - (b.x + b.width / 2) * zoom,
    y: canvas.height / 2 - (b.y + b.height / 2) * zoom,
    zoom,
  };
}

/** `--ts` on the canvas: 1 at zoom 1 and above, 1/zoom below (up to MAX_TEXT_SCALE), and `data-lod`. No node re-renders: CSS does it. */
export function useTextScale(box: RefObject<HTMLElement | null>): void {
  // in steps (faceFit.ts): not at all at zoom 1 and above
  const ts = useStore((s) => textScaleAt(s.transform[2]));
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
