// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { labelSize, overlaps, placeLabels } from './labelPlacement';
import { cubicAt, edgeCubic } from './bezier';
import { FlowMapper } from './designToFlow';
import { buildTemplate } from '../panels/templates';

const boxOf = (c: ReturnType<typeof edgeCubic>, label: string, spot: { t: number; dy: number }) => {
  const p = { x: 0, y: 0 };
  cubicAt(c, spot.t, p);
  const { w, h } = labelSize(label);
  return { x: p.x - w / 2, y: p.y + spot.dy - h / 2, w, h };
};

describe('edge label placement', () => {
  it('keeps a lone label at the middle of its curve', () => {
    const c = edgeCubic(0, 0, 'right', 400, 0, 'left');
    expect(placeLabels([{ id: 'a', label: 'task', cubic: c }], [])).toEqual(new Map([['a', { t: 0.5, dy: 0 }]]));
  });

  it('moves labels apart when curves share their middle (three wait queues dead-lettering to one exchange)', () => {
    const edges = [0, 1, 2].map((i) => ({ id: `e${i}`, label: `DL rk: orders.work.${i}`, cubic: edgeCubic(800, 40 + i * 110, 'right', 100, 150, 'left') }));
    const spots = placeLabels(edges, []);
    const boxes = edges.map((e) => boxOf(e.cubic, e.label, spots.get(e.id)!));
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
  });

  it('gives every labelled edge of a template its spot, moving the ones whose middles collide', () => {
    const r = buildTemplate('chained-ttl');
    if (!r.ok) throw new Error('template');
    const m = new FlowMapper();
    m.nodesOf(r.built.design);
    const edges = m.edgesOf(r.built.design).filter((e) => e.data?.label);
    expect(edges.length).toBeGreaterThan(10);
    expect(edges.every((e) => e.data!.labelT !== undefined)).toBe(true);
    expect(edges.filter((e) => e.data!.labelT !== 0.5 || e.data!.labelDy !== 0).length).toBeGreaterThan(0);
  });
});
