// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { componentsOf, openingZoom, packToShape } from './packComponents';
import { wrapToShape } from './wrapLayout';
import { NODE_H, NODE_W } from './flowTypes';

/** the canvas a 1280x800 window leaves between the palette, the side panel and the bottom panel */
const LAPTOP = { width: 800, height: 430 };

/** as ELK lays out a real 12-queue file: a dead-letter pair beside a fan of eleven queues from one exchange */
function fanBesidePair() {
  const layout: Record<string, { x: number; y: number }> = {
    'exchange:dlx': { x: 0, y: 0 },
    'queue:dlq': { x: 450, y: 0 },
    'exchange:docs': { x: 900, y: 500 },
  };
  const edges = [{ source: 'exchange:dlx', target: 'queue:dlq' }];
  for (let i = 0; i < 11; i++) {
    layout[`queue:q${i}`] = { x: 1200, y: i * 106 };
    edges.push({ source: 'exchange:docs', target: `queue:q${i}` });
  }
  return { layout, edges };
}

describe('unconnected parts packed for the canvas', () => {
  it('finds the parts: nodes joined by an edge either way', () => {
    const { layout, edges } = fanBesidePair();
    const parts = componentsOf(Object.keys(layout), edges);
    expect(parts.map((p) => p.length).sort((a, b) => a - b)).toEqual([2, 12]);
    expect(componentsOf(['a', 'b', 'c'], [{ source: 'c', target: 'a' }])).toEqual([['a', 'c'], ['b']]);
  });

  it('opens a pair beside a fan larger packed part by part than wrapped whole; every node kept, none on another', () => {
    const { layout, edges } = fanBesidePair();
    const parts = componentsOf(Object.keys(layout), edges);
    const whole = wrapToShape(layout, LAPTOP);
    const packed = packToShape(layout, parts, LAPTOP);
    expect(openingZoom(packed, LAPTOP)).toBeGreaterThan(1.15 * openingZoom(whole, LAPTOP));
    expect(Object.keys(packed).sort()).toEqual(Object.keys(layout).sort());
    const boxes = Object.values(packed);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(Math.abs(a.x - b.x) < NODE_W && Math.abs(a.y - b.y) < NODE_H).toBe(false);
    // each part keeps its flow left to right: the fan's exchange left of its queues
    for (let i = 0; i < 11; i++)
      expect(packed['exchange:docs']!.x + NODE_W).toBeLessThanOrEqual(packed[`queue:q${i}`]!.x);
  });

  it('a layout of one part is wrapped whole, as before', () => {
    const { layout, edges } = fanBesidePair();
    const one = Object.fromEntries(Object.entries(layout).filter(([id]) => !/dl/.test(id)));
    expect(packToShape(one, componentsOf(Object.keys(one), edges), LAPTOP)).toEqual(wrapToShape(one, LAPTOP));
  });
});
