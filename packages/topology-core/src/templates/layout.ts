/** Layout hints -> canvas positions: columns left to right, rows top to bottom. */
import type { NodePosition } from '../model/design.js';
import type { LayoutHints } from './types.js';

export const COLUMN_WIDTH = 280;
export const ROW_HEIGHT = 140;

export function positionsFromHints(h: LayoutHints): { [nodeId: string]: NodePosition } {
  const out: { [nodeId: string]: NodePosition } = {};
  h.columns.forEach((col, c) =>
    col.forEach((id, r) => {
      out[id] = { x: c * COLUMN_WIDTH, y: r * ROW_HEIGHT };
    }),
  );
  return out;
}
