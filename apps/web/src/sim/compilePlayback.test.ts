// @vitest-environment node
// (these tests need no DOM: the node environment starts faster than jsdom)
import { describe, expect, it } from 'vitest';
import { compilePlayback, displayAt, virtualAt, HOP_MS } from './compilePlayback';
import { runDesignSimulation } from './runSimulation';
import { dlxTtlRetry } from '../fixtures/designs';

function run(messages = 1, n = 2) {
  const r = runDesignSimulation(dlxTtlRetry({ ttl: 5000 }), { messages, failure: { kind: 'failFirst', n }, seed: 1 });
  if ('error' in r) throw new Error(r.error);
  return r.events;
}

describe('playback plan from simulated events', () => {
  it('a message starts at its publisher and stops at every node of the retry loop', () => {
    const plan = compilePlayback(run(), 1);
    const tr = plan.tracks[0]!;
    const nodes = tr.stops.map((s) => s.node);
    expect(nodes[0]).toBe('publisher:orders');
    expect(nodes.slice(1, 4)).toEqual(['exchange:work', 'queue:work.q', 'consumer:worker']);
    // fails twice: two passes through the wait queue, then acked
    expect(nodes.filter((n) => n === 'queue:wait.q')).toHaveLength(2);
    expect(tr.fate?.kind).toBe('acked');
    // wait queue stops carry the TTL deadline
    expect(tr.stops.find((s) => s.node === 'queue:wait.q')!.until).toBe(
      tr.stops.find((s) => s.node === 'queue:wait.q')!.t + 5000,
    );
  });

  it('display time grows with every hop and with virtual waits at the chosen speed', () => {
    const slow = compilePlayback(run(), 1);
    const fast = compilePlayback(run(), 100);
    const arrivals = slow.tracks[0]!.stops.map((s) => s.arrive);
    for (let i = 1; i < arrivals.length; i++)
      expect(arrivals[i]!).toBeGreaterThanOrEqual(arrivals[i - 1]! + HOP_MS - 1e-6);
    // 10 s of TTL at 1x is ~10 s of display; at 100x ~0.1 s
    expect(slow.endP - fast.endP).toBeGreaterThan(9000);
  });

  it('virtual and display time map back and forth', () => {
    const plan = compilePlayback(run(), 10);
    for (const t of [0, 2500, 5000, 7500, 10000]) expect(virtualAt(plan, displayAt(plan, t))).toBeCloseTo(t, 3);
  });

  it('tracks queue depth', () => {
    const plan = compilePlayback(run(3, 1), 1);
    const work = plan.depth.get('work.q')!;
    // the consumer (prefetch 1) takes the first at once; two wait ready behind it
    expect(Math.max(...work.depth)).toBe(2);
    expect(work.depth[work.depth.length - 1]).toBe(0);
  });
});
describe('nodeOfEvent', () => {
  it('points at the node where an event happens', async () => {
    const { nodeOfEvent } = await import('./compilePlayback');
    const evs = run(1, 1);
    const kinds = Object.fromEntries(evs.map((e) => [e.kind, nodeOfEvent(e)]));
    expect(kinds['routed']).toMatch(/^exchange:/);
    expect(kinds['enqueued']).toMatch(/^queue:/);
    expect(kinds['delivered']).toBe('consumer:worker');
    // the last dead-lettering is the TTL expiry out of the wait queue
    expect(kinds['dead-lettered']).toBe('queue:wait.q');
    expect(nodeOfEvent(evs.find((e) => e.kind === 'dead-lettered')!)).toBe('queue:work.q');
  });
});

describe('event progress on the sim clock', () => {
  it('counts events through zero-time hops while virtual time stands at 0, and reaches the total at the end', async () => {
    const { Player } = await import('./player');
    const pl = new Player();
    pl.load('sim', run());
    const total = pl.eventProgress.total;
    expect(total).toBe(run().length);
    const seen: number[] = [];
    // the first hops (publish → exchange → queue → consumer) all happen at t = 0
    for (let p = 0; p <= HOP_MS * 3; p += HOP_MS) {
      pl.seek(p);
      expect(pl.virtualNow).toBe(0);
      seen.push(pl.eventProgress.done);
    }
    expect(seen[seen.length - 1]!).toBeGreaterThan(seen[0]!);
    pl.seek(pl.endP);
    expect(pl.eventProgress).toEqual({ done: total, total });
  });
});
