/**
 * The zoom a design opens at in a canvas (pure: the canvas's opening view and the layout's wrap to the
 * canvas's shape both use it). Fitted whole with a margin, no closer than MAX_FIT_ZOOM, and clear of the
 * minimap's corner for a design that has one: above it (a wide design moves up) or left of it (a tall one),
 * whichever shows it larger.
 */
export const FIT_PADDING = 32;
export const MAX_FIT_ZOOM = 1.2;
/** the minimap (Canvas.tsx), 15 px from the bottom right corner */
export const MINIMAP_SIZE = { width: 160, height: 100 };
const MINIMAP_CORNER = { width: MINIMAP_SIZE.width + 15, height: MINIMAP_SIZE.height + 15 };

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** `size`: the design's bounds; `minimap`: the canvas shows one (designs below the overview's size) */
export function openingFit(size: Size, canvas: Size, minimap: boolean): { zoom: number; pane: Size } {
  const corner = minimap ? MINIMAP_CORNER : { width: 0, height: 0 };
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
