// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LABEL_MAX_SCALE, labelSize, overlaps, placeLabels } from './labelPlacement';
import { cubicAt, edgeCubic } from './bezier';
import { FlowMapper } from './designToFlow';
import { buildTemplate } from '../panels/templates';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design } from '@retry-studio/topology-core/model';
import { layoutDesign } from './autoLayout';
import { NODE_H, NODE_W } from './flowTypes';

/**
 * One topic exchange fanning out to `queues` queues, most of them bound by two or three keys (the
 * shape of a real publishing file: 21 bindings from one exchange to 12 queues, long keys).
 */
function fanOut(queues: number): Design {
  const names = Array.from({ length: queues }, (_, i) => `service_${i}_documents`);
  const keys = (i: number) =>
    [`*.bulk.search_api_v${i}_sync`, '*.major', '*.minor', '*.republish'].slice(0, 1 + (i % 3));
  return {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: 'fan',
    topology: {
      exchanges: [{ name: 'published_documents', type: 'topic' }],
      queues: names.map((name) => ({ name, arguments: {} })),
      bindings: names.flatMap((q, i) =>
        keys(i).map((routing_key) => ({
          source: 'published_documents',
          destination: q,
          destination_type: 'queue' as const,
          routing_key,
        })),
      ),
    },
    consumers: [],
    publishers: [],
  };
}

const boxOf = (c: ReturnType<typeof edgeCubic>, label: string, spot: { t: number; dy: number }, scale = 1) => {
  const p = { x: 0, y: 0 };
  cubicAt(c, spot.t, p);
  const w = labelSize(label).w * scale;
  const h = labelSize(label).h * scale;
  return { x: p.x - w / 2, y: p.y + spot.dy - h / 2, w, h };
};

describe('edge label placement', () => {
  it('keeps a lone label at the middle of its curve', () => {
    const c = edgeCubic(0, 0, 'right', 400, 0, 'left');
    expect(placeLabels([{ id: 'a', label: 'task', cubic: c }], [])).toEqual(new Map([['a', { t: 0.5, dy: 0 }]]));
  });

  it('moves labels apart when curves share their middle (three wait queues dead-lettering to one exchange)', () => {
    const edges = [0, 1, 2].map((i) => ({
      id: `e${i}`,
      label: `DL rk: orders.work.${i}`,
      cubic: edgeCubic(800, 40 + i * 110, 'right', 100, 150, 'left'),
    }));
    const spots = placeLabels(edges, []);
    const boxes = edges.map((e) => boxOf(e.cubic, e.label, spots.get(e.id)!));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
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

  it('a laid-out fan of 21 bindings from one exchange to 12 queues: no label on another, none under a box, at the size a zoomed-out view draws them', async () => {
    const design = fanOut(12);
    const laidOut = { ...design, layout: await layoutDesign(design) };
    const m = new FlowMapper();
    m.nodesOf(laidOut);
    const edges = m.edgesOf(laidOut).filter((e) => e.data?.label);
    expect(edges.length).toBe(24);
    const pos = laidOut.layout;
    const boxes = edges.map((e) => {
      const a = pos[e.source]!;
      const b = pos[e.target]!;
      const c = edgeCubic(a.x + NODE_W, a.y + NODE_H / 2, 'right', b.x, b.y + NODE_H / 2, 'left');
      return {
        label: e.data!.label!,
        box: boxOf(c, e.data!.label!, { t: e.data!.labelT!, dy: e.data!.labelDy! }, LABEL_MAX_SCALE),
      };
    });
    const nodes = Object.values(pos).map((p) => ({ x: p.x, y: p.y, w: NODE_W, h: NODE_H }));
    const problems: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++)
        if (overlaps(boxes[i]!.box, boxes[j]!.box)) problems.push(`${boxes[i]!.label} on ${boxes[j]!.label}`);
      if (nodes.some((n) => overlaps(boxes[i]!.box, n))) problems.push(`${boxes[i]!.label} under a node`);
    }
    expect(problems).toEqual([]);
  });

  it('the same fan folded for a 1280x800 canvas: a label with no free spot is crowded (shown hovered), none drawn on another', async () => {
    const design = fanOut(12);
    const laidOut = { ...design, layout: await layoutDesign(design, { width: 800, height: 430 }) };
    const m = new FlowMapper();
    m.nodesOf(laidOut);
    const edges = m.edgesOf(laidOut).filter((e) => e.data?.label);
    const pos = laidOut.layout;
    const drawn = edges
      .filter((e) => !e.data!.labelCrowded)
      .map((e) => {
        const a = pos[e.source]!;
        const b = pos[e.target]!;
        const c = edgeCubic(a.x + NODE_W, a.y + NODE_H / 2, 'right', b.x, b.y + NODE_H / 2, 'left');
        return boxOf(c, e.data!.label!, { t: e.data!.labelT!, dy: e.data!.labelDy! }, LABEL_MAX_SCALE);
      });
    // folded into blocks, the fan's curves cross its queues: some labels have no free spot
    expect(edges.some((e) => e.data!.labelCrowded)).toBe(true);
    expect(drawn.length).toBeGreaterThan(0);
    for (let i = 0; i < drawn.length; i++)
      for (let j = i + 1; j < drawn.length; j++) expect(overlaps(drawn[i]!, drawn[j]!)).toBe(false);
  });
});
