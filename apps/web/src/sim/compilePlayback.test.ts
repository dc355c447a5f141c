// @vitest-environment node
// (these tests need no DOM: the node environment starts faster than jsdom)
import { describe, expect, it } from 'vitest';
import { compilePlayback, displayAt, virtualAt, HOP_MS } from './compilePlayback';
import { runDesignSimulation } from './runSimulation';
import { dlxTtlRetry } from '../fixtures/designs';
import type { SimEvent } from '@retry-studio/topology-core/sim';

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
/** a live trace's stream: the simulated run's events, one per distinct broker ms, spread over `ms` (as the broker's clock stamps them) */
function liveLike(events: readonly SimEvent[], ms: number): SimEvent[] {
  return [...events]
    .sort((a, b) => a.t - b.t || a.seq - b.seq)
    .map((e, i, all) => ({ ...e, t: Math.round(((i + 1) * ms) / all.length) }));
}

describe('broker time (a live trace and the prediction beside it)', () => {
  // 20 messages failing twice through a 5 s TTL: ~300 events, each at an instant of its own
  const live = liveLike(run(20, 2), 5200);

  it('ends within a second of the last event at 1x, where a story of the same stream plays for minutes', () => {
    const plan = compilePlayback(live, 1, { brokerTime: true });
    const lastT = live[live.length - 1]!.t;
    expect(plan.endT).toBe(lastT);
    expect(plan.endP - displayAt(plan, lastT)).toBeLessThanOrEqual(1000);
    expect(plan.endP).toBeLessThan(HOP_MS + lastT + 1000);
    // the same events as a story: a hop of its own per instant, the replay outlives the broker by far
    expect(compilePlayback(live, 1).endP).toBeGreaterThan(100_000);
  });

  it('the clock is the broker clock: display time minus the lead-in hop, at the chosen speed', () => {
    const plan = compilePlayback(live, 10, { brokerTime: true });
    for (const t of [0, 700, 2600, 5000]) expect(virtualAt(plan, HOP_MS + t / 10)).toBeCloseTo(t, 6);
  });

  it('hops fit in the time to the next event, so every token is where the broker has it', () => {
    const plan = compilePlayback(live, 1, { brokerTime: true });
    const k = (t: number) => plan.instantsT.indexOf(t);
    for (const tr of plan.tracks)
      for (const st of tr.stops)
        if (k(st.t) + 1 < plan.instantsP.length) expect(st.arrive).toBeLessThanOrEqual(plan.instantsP[k(st.t) + 1]!);
    // instants are as far apart on the display as on the broker's clock (1x): no time added for hops
    for (let i = 1; i < plan.instantsP.length; i++)
      expect(plan.instantsP[i]! - plan.instantsP[i - 1]!).toBeCloseTo(plan.instantsT[i]! - plan.instantsT[i - 1]!, 6);
    // an acked message's token goes with its ack
    const acked = plan.tracks.filter((t) => t.fate?.kind === 'acked');
    expect(acked.length).toBeGreaterThan(0);
    for (const tr of acked) {
      const ackI = tr.eventIdx.find((i) => plan.events[i]!.kind === 'acked')!;
      expect(tr.end - plan.eventP[ackI]!).toBeLessThanOrEqual(HOP_MS);
    }
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

describe('the player with a live run', () => {
  it("reads the live run's clock and events, plays the prediction on the same clock, and follows without rewinding", async () => {
    const { Player } = await import('./player');
    const pl = new Player();
    pl.load('sim', run(3, 2));
    expect(pl.brokerTime).toBe(false);
    // the broker took longer than the prediction (its 10 s of TTL): the live run sets the end
    const live = liveLike(run(3, 2), 14_000);
    pl.load('live', live.slice(0, 10));
    expect(pl.brokerTime).toBe(true);
    expect(pl.plans.sim!.brokerTime).toBe(true);
    expect(pl.eventProgress.total).toBe(10);
    pl.play();
    pl.advance(pl.endP + 50);
    expect(pl.playing).toBe(false);
    const at = pl.p;
    // more of the run arrives: it plays on from where it was
    pl.load('live', live);
    pl.follow();
    expect(pl.playing).toBe(true);
    expect(pl.p).toBe(at);
    expect(pl.virtualEnd).toBe(live[live.length - 1]!.t);
    pl.seek(HOP_MS + 1234);
    expect(pl.virtualNow).toBeCloseTo(1234, 6);
    // the live run gone: a story again, for both
    pl.load('live', null);
    expect(pl.plans.sim!.brokerTime).toBe(false);
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

describe("the player's fates are the lanes'", () => {
  it('a copy waiting in a consumed queue plays as moving, as its lane says, not parked', async () => {
    const { Player } = await import('./player');
    const { statedOutcomesOfEvents } = await import('./runSimulation');
    const { fateRulesOf } = await import('@retry-studio/topology-core/sim');
    const design = dlxTtlRetry({ ttl: 5000 });
    // a live trace caught with its message ready in work.q (its worker consumes it)
    const all = liveLike(run(1, 2), 5200);
    const events = all.slice(0, all.findIndex((e) => e.kind === 'enqueued' && e.queue === 'work.q') + 1);
    const lane = statedOutcomesOfEvents(design, events, { running: true })[events[0]!.msgId]!;
    expect(lane.outcome.kind).toBe('moving');
    const pl = new Player();
    pl.load('live', events, { fates: { rules: fateRulesOf(design), running: true } });
    expect(pl.plans.live!.tracks[0]!.fate?.kind).toBe(lane.outcome.kind);
    // a change of speed keeps the rules
    pl.setSpeed(4);
    expect(pl.plans.live!.tracks[0]!.fate?.kind).toBe('moving');
    // without the design's rules the same copy reads as parked: what the player used to draw
    pl.load('live', events);
    expect(pl.plans.live!.tracks[0]!.fate?.kind).toBe('parked');
  });
});
