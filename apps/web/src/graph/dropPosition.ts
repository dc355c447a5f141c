/**
 * Where a node dropped from the palette goes (flow coordinates): centred on the drop point, and
 * wholly inside the visible part of the canvas. Dropped near the edge, half a publisher sat
 * outside the view (the centring was in screen pixels, wrong at any zoom but 1).
 */
import { NODE_H, NODE_W } from './flowTypes';

export interface FlowRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const clamp = (v: number, lo: number, hi: number) => (hi < lo ? lo : Math.min(Math.max(v, lo), hi));

/** `at`: the drop point; `visible`: the canvas's visible area, both in flow coordinates */
export function dropPosition(at: { x: number; y: number }, visible: FlowRect): { x: number; y: number } {
  return {
    x: clamp(at.x - NODE_W / 2, visible.x, visible.x + visible.width - NODE_W),
    y: clamp(at.y - NODE_H / 2, visible.y, visible.y + visible.height - NODE_H),
  };
}
