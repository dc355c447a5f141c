/**
 * The zoom at which every name on a design's faces reads at 9 px and more on screen (issue 41). A design of
 * up to 60 nodes whose fitted view is smaller opens at it instead, at its start (the flow's entry, top left),
 * the rest a pan away, the minimap shown: a real 37-node file (two queues named in 72 characters) fitted whole
 * into a 1280x800 window showed them at 6.3 px, and a fixed face has no room for such a name at that zoom.
 */
import type { DesignNodeData } from './flowTypes';
import { queueChips } from '../model/describe';
import { MAX_FIT_ZOOM } from './openingFit';
import { FACE_LEVELS, facePerLevel, nameOnScreenPx, nameSizes, type FaceLod } from './faceFit';

/** the smallest a name is drawn at the opening zoom, px on screen */
export const READABLE_NAME_PX = 9;
/** the most nodes a design has whose names read at its opening zoom; a bigger one opens as its overview (overviewModel.ts) */
export const READABLE_MAX_NODES = 60;

/** the name a face shows (nodes.tsx draws it) */
export function faceName(data: DesignNodeData): string {
  switch (data.kind) {
    case 'exchange':
      return data.def.name || '(default)';
    case 'queue':
      return data.def.name;
    // the assumption's worker: its queue says whose it is (its edge comes from there), the name says it is assumed
    case 'consumer':
      return data.assumed ? 'assumed worker' : (data.def.label ?? data.def.id);
    case 'publisher':
      return data.def.label ?? data.def.id;
  }
}

/** a face's name size per text-size level (a queue's keeps a row for its defining settings: faceFit.ts) */
export function faceNameSizes(data: DesignNodeData): Record<FaceLod, number> {
  if (data.kind !== 'queue') return nameSizes(faceName(data));
  const chips = queueChips(data.settings);
  const face = facePerLevel(data.def.name, chips, chips.filter((c) => c.defining).length);
  return Object.fromEntries(FACE_LEVELS.map((l) => [l.lod, face[l.lod].namePx])) as Record<FaceLod, number>;
}

/** the zoom steps tried, each 2% closer than the one before */
const STEP = 1.02;

/**
 * The smallest zoom from `from` (the fitted one) up to MAX_FIT_ZOOM at which every name reads at
 * READABLE_NAME_PX; `from` itself where they already do, or where no zoom makes them (a name with a word
 * wider than its face: it is drawn smaller, never broken).
 */
export function readableZoom(nodes: readonly { readonly data: DesignNodeData }[], from: number): number {
  const sizes = nodes.map((n) => faceNameSizes(n.data));
  // a hair over: the view's transform rounds the zoom
  const reads = (zoom: number) => sizes.every((s) => nameOnScreenPx(s, zoom) >= READABLE_NAME_PX + 0.02);
  if (reads(from)) return from;
  for (let zoom = from * STEP; zoom < MAX_FIT_ZOOM * STEP; zoom *= STEP) {
    const z = Math.min(zoom, MAX_FIT_ZOOM);
    if (reads(z)) return z;
  }
  return from;
}
