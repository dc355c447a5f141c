// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design, type QueueDef } from '@retry-studio/topology-core/model';
import { dlxTtlRetry } from '../fixtures/designs';
import { FlowMapper } from './designToFlow';
import { flowOrder } from './flowOrder';
import { layoutDesign } from './autoLayout';

const orderOf = (d: Design) => {
  const m = new FlowMapper();
  return flowOrder(
    m.nodesOf(d).map((n) => n.id),
    m.edgesOf(d).map((e) => ({ id: e.id, source: e.source, target: e.target, kind: e.data!.kind })),
  );
};

/** `n` work queues on one exchange, each dead-lettering into one DLX that routes to a DLQ per queue (a real file's shape) */
function manyIntoOneDlx(n: number): Design {
  const names = Array.from({ length: n }, (_, i) => `svc${i}`);
  return {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: 'file',
    topology: {
      exchanges: [
        { name: 'dlx', type: 'direct' },
        { name: 'events', type: 'topic' },
      ],
      queues: names.flatMap((q): QueueDef[] => [
        { name: `${q}.dlq`, arguments: {} },
        { name: q, arguments: { 'x-dead-letter-exchange': 'dlx', 'x-dead-letter-routing-key': `${q}.dlq` } },
      ]),
      bindings: names.flatMap((q) => [
        { source: 'events', destination: q, destination_type: 'queue' as const, routing_key: `${q}.#` },
        { source: 'dlx', destination: `${q}.dlq`, destination_type: 'queue' as const, routing_key: `${q}.dlq` },
      ]),
    },
    consumers: [],
    publishers: [],
  };
}

describe('the flow order the layout follows', () => {
  it('breaks the retry loop where the wait queue dead-letters back, and puts the parking queue last', () => {
    const o = orderOf(dlxTtlRetry());
    expect(o.back.map((e) => `${e.source}→${e.target}`)).toEqual(['queue:wait.q→exchange:work']);
    expect([...o.first]).toEqual(['publisher:orders']);
    expect([...o.last]).toEqual(['queue:parking.q']);
  });

  it('a dead-letter exchange fed by 13 queues follows them (no edge runs back), its DLQs last', () => {
    const o = orderOf(manyIntoOneDlx(13));
    expect(o.back).toEqual([]);
    expect(o.last.size).toBe(13);
    expect([...o.last].every((id) => id.endsWith('.dlq'))).toBe(true);
  });

  it('ELK lays it out left to right: entry exchange, work queues, the DLX, then the DLQs', async () => {
    const pos = await layoutDesign(manyIntoOneDlx(13));
    const x = (id: string) => pos[id]!.x;
    const work = Array.from({ length: 13 }, (_, i) => x(`queue:svc${i}`));
    const dlqs = Array.from({ length: 13 }, (_, i) => x(`queue:svc${i}.dlq`));
    expect(x('exchange:events')).toBeLessThan(Math.min(...work));
    expect(x('exchange:dlx')).toBeGreaterThan(Math.max(...work));
    expect(Math.min(...dlqs)).toBeGreaterThan(x('exchange:dlx'));
    const loop = await layoutDesign(dlxTtlRetry());
    expect(loop['publisher:orders']!.x).toBeLessThan(loop['exchange:work']!.x);
    expect(loop['exchange:work']!.x).toBeLessThan(loop['queue:work.q']!.x);
    expect(loop['queue:work.q']!.x).toBeLessThan(loop['queue:wait.q']!.x);
    expect(loop['queue:parking.q']!.x).toBe(Math.max(...Object.values(loop).map((p) => p.x)));
    // ELK loads on first use: slow on a busy machine
  }, 30_000);
});
