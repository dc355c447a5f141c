import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { wrapToShape } from './wrapLayout';
import { openingFit } from './openingFit';
import { NODE_H, NODE_W } from './flowTypes';

const layoutOf = (id: string) => {
  const r = buildTemplate(id);
  if (!r.ok) throw new Error(id);
  return r.template.design.layout!;
};
const sizeOf = (l: Record<string, { x: number; y: number }>) => {
  const ps = Object.values(l);
  return {
    width: Math.max(...ps.map((p) => p.x)) + NODE_W - Math.min(...ps.map((p) => p.x)),
    height: Math.max(...ps.map((p) => p.y)) + NODE_H - Math.min(...ps.map((p) => p.y)),
  };
};
/** the canvas a 1280x800 window leaves between the palette, the side panel and the bottom panel */
const LAPTOP = { width: 800, height: 430 };

describe('a flow layout wrapped to the canvas it opens in', () => {
  it('opens the wide dlx-delayed-requeue at a larger zoom, every node kept and none on another', () => {
    const before = layoutOf('dlx-delayed-requeue');
    const after = wrapToShape(before, LAPTOP);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    const z0 = openingFit(sizeOf(before), LAPTOP).zoom;
    const z1 = openingFit(sizeOf(after), LAPTOP).zoom;
    expect(z1).toBeGreaterThan(z0 * 1.5);
    const boxes = Object.values(after);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(Math.abs(a.x - b.x) < NODE_W && Math.abs(a.y - b.y) < NODE_H).toBe(false);
  });

  it('keeps each band in flow order: a node right of another in a band was right of it before', () => {
    const before = layoutOf('binary-delay-levels');
    const after = wrapToShape(before, LAPTOP);
    const ids = Object.keys(before);
    for (const a of ids)
      for (const b of ids)
        if (after[a]!.y === after[b]!.y && after[a]!.x < after[b]!.x) expect(before[a]!.x).toBeLessThan(before[b]!.x);
  });

  it('leaves a layout that already fits the canvas as it is', () => {
    const before = layoutOf('requeue-once');
    expect(wrapToShape(before, LAPTOP)).toEqual(before);
    // and a wide canvas takes the wide row as it is
    const wide = layoutOf('dlx-delayed-requeue');
    expect(wrapToShape(wide, { width: 6000, height: 600 })).toEqual(wide);
  });

  it('folds a tall layout side by side: columns of twelve become blocks, flow order kept', () => {
    // three columns (publishers, an exchange, queues) of up to twelve, as ELK lays out a real 12-queue file
    const tall: Record<string, { x: number; y: number }> = { 'exchange:x': { x: 300, y: 500 } };
    for (let i = 0; i < 12; i++) {
      tall[`publisher:p${i}`] = { x: 0, y: i * 100 };
      tall[`queue:q${i}`] = { x: 600, y: i * 100 };
    }
    const after = wrapToShape(tall, LAPTOP);
    expect(openingFit(sizeOf(after), LAPTOP).zoom).toBeGreaterThan(1.35 * openingFit(sizeOf(tall), LAPTOP).zoom);
    const right = (p: string) => after[p]!.x + NODE_W;
    for (let i = 0; i < 12; i++) {
      expect(right(`publisher:p${i}`)).toBeLessThanOrEqual(after['exchange:x']!.x);
      expect(right('exchange:x')).toBeLessThanOrEqual(after[`queue:q${i}`]!.x);
    }
  });
});
