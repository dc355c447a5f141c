import { describe, expect, it } from 'vitest';
import { FlowMapper } from '../graph/designToFlow';
import { stressDesign } from '../fixtures/designs';
import { searchNodes } from './nodeSearch';

describe('searchNodes', () => {
  const nodes = new FlowMapper().nodesOf(stressDesign(20));
  it('finds a node by part of its name, names that start with it first', () => {
    const hits = searchNodes(nodes, 's1.wait');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.name.startsWith('s1.wait')).toBe(true);
    expect(hits.every((h) => h.name.toLowerCase().includes('s1.wait'))).toBe(true);
    expect(hits.map((h) => h.id)).toContain(`queue:${hits[0]!.name}`);
  });
  it('is case-insensitive, bounded, and finds nothing for nothing', () => {
    expect(searchNodes(nodes, 'WAIT', 5)).toHaveLength(5);
    expect(searchNodes(nodes, '  ')).toEqual([]);
    expect(searchNodes(nodes, 'no-such-node')).toEqual([]);
  });
});
