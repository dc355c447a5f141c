/**
 * The zoom a design opens at in a canvas (pure: the canvas's opening view and the layout's wrap to the
 * canvas's shape both use it). Fitted whole with a margin, no closer than MAX_FIT_ZOOM, and clear of the
 * corner the minimap and the zoom buttons take: above it (a wide design moves up) or left of it (a tall
 * one), whichever shows it larger.
 */
export const FIT_PADDING = 32;
export const MAX_FIT_ZOOM = 1.2;
/** the minimap (Canvas.tsx), 15 px from the bottom right corner */
export const MINIMAP_SIZE = { width: 160, height: 100 };
/** the zoom buttons (React Flow's Controls, Canvas.tsx): left of the minimap, or alone in the corner without one */
export const CONTROLS_SIZE = { width: 28, height: 84 };
export const CONTROLS_GAP = 8;
const MINIMAP_CORNER = {
  width: MINIMAP_SIZE.width + 15 + CONTROLS_GAP + CONTROLS_SIZE.width,
  height: MINIMAP_SIZE.height + 15,
};
/** a big design has no minimap: the buttons alone (they covered a real file's node at the bottom left) */
const CONTROLS_CORNER = { width: CONTROLS_SIZE.width + 15, height: CONTROLS_SIZE.height + 15 };

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** `size`: the design's bounds; `minimap`: the canvas shows one (designs below the overview's size) */
export function openingFit(size: Size, canvas: Size, minimap: boolean): { zoom: number; pane: Size } {
  const corner = minimap ? MINIMAP_CORNER : CONTROLS_CORNER;
  const fitIn = (a: Size) =>
    Math.min(
      (a.width - 2 * FIT_PADDING) / Math.max(1, size.width),
      (a.height - 2 * FIT_PADDING) / Math.max(1, size.height),
      MAX_FIT_ZOOM,
    );
  const above = { width: canvas.width, height: canvas.height - corner.height };
  const beside = { width: canvas.width - corner.width, height: canvas.height };
  const pane = fitIn(above) >= fitIn(beside) ? above : beside;
  return { zoom: fitIn(pane), pane };
}

/** the room the canvas leaves for the minimap's corner (focusing a set of nodes keeps clear of it) */
export const MINIMAP_ROOM = MINIMAP_CORNER;
