// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { emptyDesign } from '../model/emptyDesign';
import { layoutDesign } from '../graph/autoLayout';
import { FlowMapper } from '../graph/designToFlow';
import { NODE_W } from '../graph/flowTypes';
import { MINIMAP_ROOM } from '../graph/openingFit';
import { openingViewport } from './readableFit';

/** the canvas a 1280x800 window leaves between the palette, the side panel and the bottom panel */
const LAPTOP = { width: 800, height: 430 };

/** as rabbitmq-case9a's "/": unconnected queues, two named in 72 characters (they read at 9 px only near zoom 0.7) */
function longNamedQueues(n: number): Design {
  const d = emptyDesign('long names');
  const names = Array.from({ length: n }, (_, i) => `langohr.tests.queue${i}`);
  names[3] = 'langohr.tests2.queues.client-named.durable.non-exclusive.non-auto-deleted';
  names[9] = 'langohr.tests2.queues.client-named.durable.non-exclusive.auto-deleted.x';
  return {
    ...d,
    topology: { ...d.topology, queues: names.map((name) => ({ name, durable: true, arguments: {} })) },
  };
}

describe('the opening view of a design whose names read only closer than its fit', () => {
  it('opens on a part of it, every node in view left of the minimap strip (its rows laid out that narrow)', async () => {
    const design = longNamedQueues(30);
    const laidOut = { ...design, layout: await layoutDesign(design, LAPTOP) };
    const nodes = new FlowMapper().nodesOf(laidOut);
    const v = openingViewport(nodes, LAPTOP)!;
    expect(v.whole).toBe(false);
    const rights = nodes.map((n) => v.x + (n.position.x + NODE_W) * v.zoom);
    expect(Math.max(...rights)).toBeLessThanOrEqual(LAPTOP.width - MINIMAP_ROOM.width);
    // the rows use that room: more than one node a row
    expect(new Set(nodes.map((n) => n.position.x)).size).toBeGreaterThan(1);
  });

  it('a design whose names read fitted opens whole, centred in the canvas', async () => {
    const design = longNamedQueues(30);
    const short = {
      ...design,
      topology: { ...design.topology, queues: design.topology.queues.map((q, i) => ({ ...q, name: `q${i}` })) },
    };
    const laidOut = { ...short, layout: await layoutDesign(short, LAPTOP) };
    expect(openingViewport(new FlowMapper().nodesOf(laidOut), LAPTOP)!.whole).toBe(true);
  });
});
