// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dropPosition } from './dropPosition';
import { NODE_H, NODE_W } from './flowTypes';

describe('a node dropped from the palette', () => {
  const view = { x: 0, y: 0, width: 1000, height: 600 };

  it('is centred on the drop point', () => {
    expect(dropPosition({ x: 500, y: 300 }, view)).toEqual({ x: 500 - NODE_W / 2, y: 300 - NODE_H / 2 });
  });

  it('stays wholly in view when dropped at an edge (half a publisher was outside)', () => {
    expect(dropPosition({ x: 20, y: 10 }, view)).toEqual({ x: 0, y: 0 });
    expect(dropPosition({ x: 990, y: 590 }, view)).toEqual({ x: 1000 - NODE_W, y: 600 - NODE_H });
    // zoomed out, the visible area in flow units is larger and anywhere else in it
    expect(dropPosition({ x: -380, y: 40 }, { x: -400, y: -200, width: 2400, height: 1400 })).toEqual({
      x: -400,
      y: 40 - NODE_H / 2,
    });
  });
});
