/**
 * The zoom a design opens at in a canvas (pure: the canvas's opening view and the layout's wrap to the
 * canvas's shape both use it). Fitted whole with a margin, no closer than MAX_FIT_ZOOM, and clear of the
 * corner the zoom buttons take: above it (a wide design moves up) or left of it (a tall one), whichever
 * shows it larger. The minimap shows only once the view is moved (Canvas.tsx): at the opening view the
 * whole design is in view, and its corner (211 x 115 px of a 1280x800 window's 800 x 430 canvas) held a
 * real 37-node file's names under 9 px.
 */
export const FIT_PADDING = 32;
export const MAX_FIT_ZOOM = 1.2;
/** the minimap (Canvas.tsx), 15 px from the bottom right corner */
export const MINIMAP_SIZE = { width: 160, height: 100 };
/** the zoom buttons (React Flow's Controls, Canvas.tsx): in the corner, left of the minimap when it shows */
export const CONTROLS_SIZE = { width: 28, height: 84 };
export const CONTROLS_GAP = 8;
const MINIMAP_CORNER = {
  width: MINIMAP_SIZE.width + 15 + CONTROLS_GAP + CONTROLS_SIZE.width,
  height: MINIMAP_SIZE.height + 15,
};
/** the opening view's corner: the buttons alone (at the bottom left they covered a real file's node) */
const CONTROLS_CORNER = { width: CONTROLS_SIZE.width + 15, height: CONTROLS_SIZE.height + 15 };

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** `size`: the design's bounds */
export function openingFit(size: Size, canvas: Size): { zoom: number; pane: Size } {
  const corner = CONTROLS_CORNER;
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

/** the room the canvas leaves for the minimap's corner once it shows (focusing a set of nodes keeps clear of it) */
export const MINIMAP_ROOM = MINIMAP_CORNER;

/**
 * Whether the canvas has room for the minimap: twice its corner each way. In less (the bottom panel dragged up
 * leaves a 154 px canvas) no room beside or above it held a row of nodes, and the map covered a template's rows.
 */
export function minimapFits(canvas: Size): boolean {
  return canvas.width >= 2 * MINIMAP_ROOM.width && canvas.height >= 2 * MINIMAP_ROOM.height;
}
