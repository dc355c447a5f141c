/**
 * The cubic of React Flow's default bezier edge (curvature 0.25), computed here so that edges
 * and the tokens that travel them share one geometry.
 */
export type Side = 'left' | 'right' | 'top' | 'bottom';

export interface Cubic {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  x3: number;
  y3: number;
}

const CURVATURE = 0.25;

function offset(distance: number): number {
  return distance >= 0 ? 0.5 * distance : CURVATURE * 25 * Math.sqrt(-distance);
}

function control(side: Side, x1: number, y1: number, x2: number, y2: number): [number, number] {
  switch (side) {
    case 'left':
      return [x1 - offset(x1 - x2), y1];
    case 'right':
      return [x1 + offset(x2 - x1), y1];
    case 'top':
      return [x1, y1 - offset(y1 - y2)];
    case 'bottom':
      return [x1, y1 + offset(y2 - y1)];
  }
}

export function edgeCubic(sx: number, sy: number, sSide: Side, tx: number, ty: number, tSide: Side): Cubic {
  const [x1, y1] = control(sSide, sx, sy, tx, ty);
  const [x2, y2] = control(tSide, tx, ty, sx, sy);
  return { x0: sx, y0: sy, x1, y1, x2, y2, x3: tx, y3: ty };
}

export function cubicPath(c: Cubic): string {
  return `M${c.x0},${c.y0} C${c.x1},${c.y1} ${c.x2},${c.y2} ${c.x3},${c.y3}`;
}

/** Point at parameter u in [0,1], written into out (no allocation in the frame loop). */
export function cubicAt(c: Cubic, u: number, out: { x: number; y: number }): void {
  const v = 1 - u;
  const a = v * v * v;
  const b = 3 * v * v * u;
  const d = 3 * v * u * u;
  const e = u * u * u;
  out.x = a * c.x0 + b * c.x1 + d * c.x2 + e * c.x3;
  out.y = a * c.y0 + b * c.y1 + d * c.y2 + e * c.y3;
}
