// @vitest-environment node
// (these tests need no DOM: the node environment starts faster than jsdom)
import { describe, expect, it } from 'vitest';
import { FlowMapper, NO_DECORATIONS } from './designToFlow';
import { dlxTtlRetry } from '../fixtures/designs';
import { moveNodes } from '../model/designEdit';

describe('design → React Flow graph', () => {
  it('maps every object to a node and every reference to an edge of the right kind', () => {
    const m = new FlowMapper();
    const d = dlxTtlRetry();
    const nodes = m.nodesOf(d);
    expect(nodes.map((n) => n.id).sort()).toEqual(
      [
        'consumer:worker',
        'exchange:retry',
        'exchange:work',
        'publisher:orders',
        'queue:parking.q',
        'queue:wait.q',
        'queue:work.q',
      ].sort(),
    );
    const edges = m.edgesOf(d);
    const kinds = edges.map((e) => `${e.data!.kind} ${e.source}→${e.target}`).sort();
    expect(kinds).toEqual(
      [
        'binding exchange:retry→queue:wait.q',
        'binding exchange:work→queue:work.q',
        'consume queue:work.q→consumer:worker',
        'deadLetter queue:wait.q→exchange:work',
        'deadLetter queue:work.q→exchange:retry',
        'publish publisher:orders→exchange:work',
        // the worker parks through the default exchange: the edge goes to the parking queue
        'republish consumer:worker→queue:parking.q',
      ].sort(),
    );
    expect(edges.find((e) => e.id.includes('work.q') && e.data!.kind === 'deadLetter')!.data!.label).toBe(
      'DL rk: wait',
    );
  });

  it('reuses node objects that did not change (so React Flow skips their render)', () => {
    const m = new FlowMapper();
    const d = dlxTtlRetry();
    const a = m.nodesOf(d, NO_DECORATIONS);
    const moved = moveNodes(d, [{ id: 'queue:work.q', position: { x: 999, y: 1 } }]);
    const b = m.nodesOf(moved, NO_DECORATIONS);
    for (let i = 0; i < a.length; i++) {
      if (a[i]!.id === 'queue:work.q') expect(b[i]).not.toBe(a[i]);
      else expect(b[i]).toBe(a[i]);
    }
  });

  it('marks selection, lint and path decorations', () => {
    const m = new FlowMapper();
    const nodes = m.nodesOf(dlxTtlRetry(), {
      selected: new Set(['queue:work.q']),
      lint: new Map([['exchange:retry', { severity: 'warning', count: 2 }]]),
      pathNodes: new Set(['publisher:orders']),
      pathEdges: new Set(),
    });
    const by = new Map(nodes.map((n) => [n.id, n]));
    expect(by.get('queue:work.q')!.selected).toBe(true);
    expect(by.get('exchange:retry')!.data.lint).toBe('warning');
    expect(by.get('publisher:orders')!.data.onPath).toBe(true);
  });
});
