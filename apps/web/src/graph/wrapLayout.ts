/**
 * A layout laid along its flow (columns left to right: a template's, ELK's layers) reshaped to the
 * canvas it opens in. A wide one is wrapped into bands, one under the other: the stock
 * `dlx-delayed-requeue` was one row of ten columns that a 1280x800 window fitted at zoom 0.30, names
 * 4.8-7.4 px on screen. A tall one has its columns folded side by side: a real 12-queue file with 11
 * publishers opened as three columns of twelve at zoom 0.18. Each keeps the flow left to right.
 */
import type { NodePosition } from '@retry-studio/topology-core/model';
import { NODE_H, NODE_W } from './flowTypes';
import { openingFit, type Size } from './openingFit';

/** room between two bands, for the edges that run back from the end of one to the start of the next */
export const BAND_GAP = 70;
/** a band's columns and rows, packed: room for an edge label between columns, for an edge between rows */
const BAND_COLUMN = NODE_W + 80;
const BAND_ROW = NODE_H + 34;
/** a folded column's pieces side by side, and their rows */
const FOLD_GAP = 30;
const FOLD_ROW = NODE_H + 30;
/** between two folded columns: room for edge labels */
const COLUMN_GAP = 110;

type Layout = Readonly<Record<string, NodePosition>>;

/** node ids by column (nodes within half a box of a column's left edge), left to right, each top to bottom */
function columnsOf(layout: Layout): string[][] {
  const ids = Object.keys(layout).sort((a, b) => layout[a]!.x - layout[b]!.x || layout[a]!.y - layout[b]!.y);
  const cols: { x: number; ids: string[] }[] = [];
  for (const id of ids) {
    const x = layout[id]!.x;
    const last = cols[cols.length - 1];
    if (last && x - last.x < NODE_W / 2) last.ids.push(id);
    else cols.push({ x, ids: [id] });
  }
  return cols.map((c) => c.ids);
}

/**
 * The layout cut into bands of `per` columns each, stacked; in a band the columns and the rows (nodes
 * level in one column stay level with those of another) are packed at BAND_COLUMN and BAND_ROW.
 */
function banded(layout: Layout, cols: string[][], per: number): { layout: Record<string, NodePosition>; size: Size } {
  const out: Record<string, NodePosition> = {};
  let top = 0;
  let width = 0;
  for (let i = 0; i < cols.length; i += per) {
    const band = cols.slice(i, i + per);
    // rows: ys within half a box of a row's first are one row (ELK's layers are not exactly level)
    const ys = [...new Set(band.flat().map((id) => layout[id]!.y))].sort((a, b) => a - b);
    const rowOf = new Map<number, number>();
    let row = -1;
    let start = -Infinity;
    for (const y of ys) {
      if (y - start >= NODE_H / 2) [row, start] = [row + 1, y];
      rowOf.set(y, row);
    }
    band.forEach((col, c) => {
      // two nodes of a column in one row: the second goes below (rows are at least a box apart in a column)
      let last = -1;
      for (const id of [...col].sort((a, b) => layout[a]!.y - layout[b]!.y)) {
        const r = Math.max(rowOf.get(layout[id]!.y)!, last + 1);
        out[id] = { x: c * BAND_COLUMN, y: top + r * BAND_ROW };
        last = r;
        row = Math.max(row, r);
      }
    });
    width = Math.max(width, (band.length - 1) * BAND_COLUMN + NODE_W);
    top += row * BAND_ROW + NODE_H + BAND_GAP;
  }
  return { layout: out, size: { width, height: top - BAND_GAP } };
}

/** each column cut into pieces of at most `rows` nodes set side by side (a tall column becomes a block) */
function folded(cols: string[][], rows: number): { layout: Record<string, NodePosition>; size: Size } {
  const out: Record<string, NodePosition> = {};
  let x = 0;
  let height = 0;
  for (const col of cols) {
    const pieces = Math.ceil(col.length / rows);
    const per = Math.ceil(col.length / pieces);
    col.forEach((id, i) => {
      out[id] = { x: x + Math.floor(i / per) * (NODE_W + FOLD_GAP), y: (i % per) * FOLD_ROW };
    });
    height = Math.max(height, (per - 1) * FOLD_ROW + NODE_H);
    x += pieces * NODE_W + (pieces - 1) * FOLD_GAP + COLUMN_GAP;
  }
  return { layout: out, size: { width: x - COLUMN_GAP, height } };
}

/**
 * A zoom at which a face's name reads at 9 px and more on screen (names of up to about 20 characters a
 * line; node text grows against the zoom below 1, faceFit.ts): a layout that opens at it is not wrapped.
 */
export const READABLE_ZOOM = 0.62;

/**
 * The fewest bands that open at READABLE_ZOOM, else the number that opens largest.
 */
export function wrapToShape(layout: Layout, canvas: Size): Record<string, NodePosition> {
  const cols = columnsOf(layout);
  if (cols.length === 0 || canvas.width <= 0 || canvas.height <= 0) return { ...layout };
  const fit = (size: Size) => openingFit(size, canvas).zoom;
  const ps = Object.values(layout);
  const asIs = {
    width: Math.max(...ps.map((p) => p.x)) - Math.min(...ps.map((p) => p.x)) + NODE_W,
    height: Math.max(...ps.map((p) => p.y)) - Math.min(...ps.map((p) => p.y)) + NODE_H,
  };
  let best: { zoom: number; layout: Record<string, NodePosition> } = { zoom: fit(asIs), layout: { ...layout } };
  // another band or fold only for a clearly larger view: each one sends edges across the canvas
  const consider = (c: { layout: Record<string, NodePosition>; size: Size }) => {
    const zoom = fit(c.size);
    if (zoom > best.zoom * 1.08) best = { zoom, layout: c.layout };
  };
  if (best.zoom >= READABLE_ZOOM) return best.layout;
  if (asIs.width / asIs.height > canvas.width / canvas.height) {
    let per = cols.length + 1;
    for (let bands = 1; bands <= Math.ceil(cols.length / 2) && best.zoom < READABLE_ZOOM; bands++) {
      if (Math.ceil(cols.length / bands) === per) continue;
      per = Math.ceil(cols.length / bands);
      consider(banded(layout, cols, per));
    }
  } else {
    const tallest = Math.max(...cols.map((c) => c.length));
    for (let rows = tallest - 1; rows >= 2 && best.zoom < READABLE_ZOOM; rows--) consider(folded(cols, rows));
  }
  return best.layout;
}
