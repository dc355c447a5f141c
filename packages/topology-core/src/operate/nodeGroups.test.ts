import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../io/index.js';
import { withAssumedActors } from '../lint/index.js';
import type { Design } from '../model/design.js';
import { retryGroupsDefinitions, tenantDefinitions } from '../../testing/bigDefinitions.js';
import { CLUSTER_TARGET, LEAF_MAX_NODES, clusterNodes, namePrefixOf } from './nodeGroups.js';
import { layoutByPrefix } from './layoutByPrefix.js';

/** a definitions file opened as the designer opens it: its assumed actors scaffolded */
function opened(text: string): Design {
  const r = readDocumentFile(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return withAssumedActors(r.docs[0]!.design).design;
}

const nodeCount = (d: Design) =>
  d.topology.queues.length + d.topology.exchanges.length + d.consumers.length + d.publishers.length;

describe('name prefixes', () => {
  it('takes the first n segments with their separators', () => {
    expect(namePrefixOf('svc-0001.main', 1)).toBe('svc');
    expect(namePrefixOf('svc-0001.main', 2)).toBe('svc-0001');
    expect(namePrefixOf('svc-0001.main', 3)).toBe('svc-0001.main');
    expect(namePrefixOf('orders', 2)).toBe('orders');
  });
});

describe('node groups a person can read (issue 41: 1,000 retry groups read "app · 0 queues")', () => {
  const design = opened(retryGroupsDefinitions(1000));
  const clusters = clusterNodes(design);

  it('makes each retry group a leaf, named by the prefix its queues share', () => {
    const leaves = clusters.flatMap((c) => c.leaves);
    const svc7 = leaves.find((l) => l.key === 'svc-0007');
    expect(svc7?.queues).toBe(5);
    expect(svc7?.nodes).toContain('queue:svc-0007.parking');
    // every node in exactly one leaf
    const all = leaves.flatMap((l) => l.nodes);
    expect(all).toHaveLength(nodeCount(design));
    expect(new Set(all).size).toBe(all.length);
  });

  it('labels about a dozen clusters: runs of consecutive groups, each saying its ends and its queues', () => {
    expect(clusters.length).toBeLessThanOrEqual(CLUSTER_TARGET + 2);
    expect(clusters.length).toBeGreaterThanOrEqual(CLUSTER_TARGET - 2);
    const first = clusters.find((c) => c.key.startsWith('svc-0001'));
    expect(first?.key).toMatch(/^svc-0001 … svc-00\d\d$/);
    expect(first?.queues).toBe(first!.leaves.length * 5);
    expect(clusters.reduce((s, c) => s + c.queues, 0)).toBe(5000);
  });

  it('keeps a small group whole (no cut into single queues)', () => {
    const tenants = clusterNodes(opened(tenantDefinitions(20, 6)));
    const leaves = tenants.flatMap((c) => c.leaves);
    expect(leaves.every((l) => l.nodes.length <= LEAF_MAX_NODES)).toBe(true);
    expect(leaves.find((l) => l.key === 'acme-0003')?.queues).toBe(7);
  });

  it('lays each cluster out as a block of its own: no two clusters overlap, no two nodes on one spot', () => {
    const { positions } = layoutByPrefix(design, { aspect: 1.8 });
    const spots = new Set(Object.values(positions).map((p) => `${p.x},${p.y}`));
    expect(spots.size).toBe(nodeCount(design));
    const boxes = clusters.map((c) => {
      const ps = c.leaves.flatMap((l) => l.nodes).map((id) => positions[id]!);
      return {
        x0: Math.min(...ps.map((p) => p.x)),
        y0: Math.min(...ps.map((p) => p.y)),
        x1: Math.max(...ps.map((p) => p.x)) + 190,
        y1: Math.max(...ps.map((p) => p.y)) + 76,
      };
    });
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0).toBe(true);
  });
});
