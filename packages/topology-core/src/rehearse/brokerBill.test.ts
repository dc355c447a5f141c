import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { uniformCalibration } from '../../testing/calibrationFixtures.js';
import { rehearse } from './rehearse.js';
import { rehearseRuns } from './runs.js';

const outage = (target: string, startMs: number, endMs: number) => ({ target, consumerOutages: [{ startMs, endMs }] });

describe("rehearse: the broker's bill from a calibration", () => {
  it('RAM and disk apart, per queue and for the node (idle use + the queues)', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const calibration = uniformCalibration({ ramBytes: 50, diskBytes: 300, idleMemoryBytes: 100_000_000 });
    const r = rehearse(
      d,
      { rate: 10, durationMs: 60_000, targets: [outage('worker', 10_000, 40_000)] },
      { calibration },
    );
    const parking = r.queues.find((q) => q.name === 'orders.parking')!;
    expect(parking.peakDepth).toBe(200);
    expect(parking.peakMemoryBytes).toBe(200 * 50);
    expect(parking.peakDiskBytes).toBe(200 * (300 + 1024));
    expect(parking.perMessage).toMatchObject({ ramBytes: 50, diskBytes: 1324 });
    // the node: at the end the parking lot's 200 and nothing else (the wait queue is empty by then)
    expect(r.node.peakMemoryBytes).toBeGreaterThanOrEqual(100_000_000 + 200 * 50);
    expect(r.node.peakDiskBytes).toBeGreaterThanOrEqual(200 * 1324);
    expect(r.node.alarms).toEqual([]);
    expect(r.node.watermark).toBe(0.4);
  });

  it('under a flow the node holds what was not yet collected on top of the queues; a queue keeps its settled figure', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const settled = uniformCalibration({ ramBytes: 50, diskBytes: 300, idleMemoryBytes: 100_000_000 });
    // 3x the settled 50 B a message under the flow: 100 B more a resident message, node-wide
    const flow = [
      {
        storage: 'classic' as const,
        bodyBytes: 1024,
        ratePerSecond: 1000,
        messages: 20_000,
        ramBytesPerMessage: { value: 150, min: 150, max: 150, runs: 1 },
      },
    ];
    const load = { rate: 10, durationMs: 60_000, targets: [outage('worker', 10_000, 40_000)] };
    const a = rehearse(d, load, { calibration: settled });
    const b = rehearse(d, load, { calibration: { ...settled, flow } });
    const parking = (r: typeof a) => r.queues.find((q) => q.name === 'orders.parking')!;
    expect(parking(b).peakMemoryBytes).toBe(parking(a).peakMemoryBytes);
    expect(a.node.uncollectedMemoryBytes).toBe(0);
    // at the peak: 100 B for each message resident then (the queues' settled 50 B each)
    const residentAtPeak = (b.node.peakMemoryBytes - 100_000_000 - b.node.uncollectedMemoryBytes) / 50;
    expect(residentAtPeak).toBeGreaterThanOrEqual(200);
    expect(b.node.uncollectedMemoryBytes).toBe(residentAtPeak * 100);
    expect(b.node.peakMemoryBytes - a.node.peakMemoryBytes).toBe(b.node.uncollectedMemoryBytes);
  });

  it("a quorum queue's WAL holds the bodies of its messages, and what consumed ones leave, up to the log's size", () => {
    const d = templateDesign('quorum-delivery-limit', { deliveryLimit: 3 });
    const calibration = uniformCalibration({ version: '4.3.6', ramBytes: 60, walRamBytes: 1700, consumedBytes: 380 });
    const r = rehearse(d, { rate: 10, durationMs: 60_000, profile: '4.3' }, { calibration });
    // every message consumed at once: 600 x 380 B left in the memtables
    expect(r.node.walMemoryBytes).toBe(600 * 380);
    const held = rehearse(
      d,
      { rate: 10, durationMs: 60_000, afterMs: 0, profile: '4.3', targets: [outage('worker', 0, 60_000)] },
      {
        calibration: uniformCalibration({ version: '4.3.6', walRamBytes: 1700, consumedBytes: 380 }),
      },
    );
    // the worker down the whole time (a nack loop on 4.3): nothing consumed, every body stays in the memtables
    expect(held.node.walMemoryBytes).toBeGreaterThanOrEqual(500 * 1700);
  });

  it("a classic queue keeps what consumed messages leave (3.x's index journal) up to 32,768 of them, in its RAM", () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const r = rehearse(
      d,
      { rate: 10, durationMs: 60_000 },
      { calibration: uniformCalibration({ consumedBytes: 1000 }) },
    );
    expect(r.queues.find((q) => q.name === 'orders.q')?.peakMemoryBytes).toBe(600 * 1000);
    expect(r.node.peakMemoryBytes).toBe(600 * 1000);
    const big = rehearse(
      d,
      { rate: 1000, durationMs: 60_000 },
      { calibration: uniformCalibration({ consumedBytes: 1000 }) },
    );
    expect(big.queues.find((q) => q.name === 'orders.q')?.peakMemoryBytes).toBe(32_768 * 1000);
  });

  it('a delayed-message exchange holds messages the broker counts in no queue: in held, memory, in flight and the drain', () => {
    const d = templateDesign('delayed-exchange', {
      maxRetries: 3,
      initialDelayMs: 60_000,
      multiplier: 1,
      maxDelayMs: 60_000,
    });
    const calibration = uniformCalibration({ ramBytes: 100 });
    const load = { rate: 10, durationMs: 60_000, afterMs: 0, targets: [outage('worker', 10_000, 50_000)] };
    const r = rehearse(d, load, { calibration });
    expect(r.held.length).toBe(1);
    const h = r.held[0]!;
    // every arrival in the outage waits a minute in the exchange: 40 s of arrivals at once
    expect(h.peakHeld).toBe(400);
    expect(h.peakMemoryBytes).toBeGreaterThanOrEqual(400 * 1024);
    expect(r.node.peakMemoryBytes).toBeGreaterThanOrEqual(h.peakMemoryBytes);
    // cut off while they wait: in flight, and not drained
    expect(r.outcomes.inFlight).toBeGreaterThan(0);
    expect(r.drainMs).toBeNull();
  });

  it('at the memory watermark the publishers are blocked until it clears: said, and the delays show it', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 50 });
    const calibration = uniformCalibration({ ramBytes: 1000, bodyInRam: 1 });
    const load = { rate: 100, durationMs: 120_000, targets: [outage('worker', 10_000, 70_000)] };
    const free = rehearse(d, load, { calibration });
    expect(free.node.alarms).toEqual([]);
    // a node whose watermark (0.4 of 20 MB) falls at about 4,000 messages of 2 KB
    const small = rehearse(d, { ...load, brokerMemoryBytes: 20_000_000 }, { calibration });
    expect(small.node.alarms.length).toBeGreaterThanOrEqual(1);
    const a = small.node.alarms[0]!;
    expect(a.kind).toBe('memory');
    expect(a.fromMs).toBeGreaterThan(10_000);
    expect(a.fromMs).toBeLessThan(70_000);
    expect(a.messagesWaited).toBeGreaterThan(0);
    expect(a.longestWaitMs).toBeGreaterThan(1000);
    // nothing is lost: every message is published in the end, later
    expect(small.messages).toBe(free.messages);
    expect(small.outcomes.acked + small.outcomes.parked).toBe(free.outcomes.acked + free.outcomes.parked);
    expect(small.delayMs!.p95).toBeGreaterThanOrEqual(free.delayMs!.p95);
    expect(small.delayMs!.max).toBeGreaterThanOrEqual(free.delayMs!.max);
    // blocked publishers keep the node at the watermark, not above it by more than a few messages
    expect(small.node.peakMemoryBytes).toBeLessThan(0.4 * 20_000_000 + 50 * 2024);
  });

  it('a hot nack loop on 4.3 runs at the calibrated requeue rate as long as it lasts, and the rest of the load still arrives', () => {
    const d = templateDesign('quorum-delivery-limit', { deliveryLimit: 3 });
    const calibration = uniformCalibration({ version: '4.3.6', ceilings: { requeuePerSec: 5000 } });
    const load = { rate: 100, durationMs: 120_000, afterMs: 0, profile: '4.3' as const };
    const r = rehearse(d, { ...load, targets: [outage('worker', 20_000, 40_000)] }, { calibration });
    expect(r.loops.length).toBe(1);
    expect(r.loops[0]!.queue).toBe('jobs.q');
    expect(r.loops[0]!.deliveriesPerSecond).toBeGreaterThan(4500);
    expect(r.loops[0]!.deliveriesPerSecond).toBeLessThanOrEqual(5000);
    // the outage's 20 s: then the worker is back and the looping messages are acked
    expect(r.loops[0]!.forMs).toBeGreaterThanOrEqual(19_000);
    expect(r.loops[0]!.forMs).toBeLessThanOrEqual(22_000);
    expect(r.messages).toBe(12_000);
    expect(r.outcomes.acked).toBe(12_000);
    // a poison message loops for good: from the first one to the end of the load
    const p = rehearse(d, { ...load, poison: 0.01 }, { calibration });
    expect(p.loops[0]!.forMs).toBeGreaterThanOrEqual(110_000);
    expect(p.endMs).toBeGreaterThanOrEqual(119_000);
    expect(p.outcomes.acked).toBeGreaterThanOrEqual(11_700);
  });
});

describe('rehearse: drain against the outage-free band, and --runs', () => {
  it('with a 1% error rate the drain is within 10 s of the one without errors (the band absorbs the errors)', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const base = { rate: 200, durationMs: 600_000, targets: [outage('worker', 120_000, 300_000)] };
    const clean = rehearse(d, base);
    const noisy = rehearse(d, { ...base, errorRate: 0.01 });
    expect(clean.drainMs).not.toBeNull();
    expect(noisy.drainMs).not.toBeNull();
    expect(Math.abs(noisy.drainMs! - clean.drainMs!)).toBeLessThanOrEqual(10_000);
  });

  it('N seeds give each figure as p5, p50 and p95; without randomness the spread is nil', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 1000, maxRetries: 2 });
    const load = { rate: 20, durationMs: 60_000, errorRate: 0.3, targets: [outage('worker', 10_000, 20_000)] };
    const r = rehearseRuns(d, load, 5);
    expect(r.runs?.count).toBe(5);
    expect(r.runs?.seeds).toEqual([1, 2, 3, 4, 5]);
    const parked = r.runs!.figures['outcomes.parked']!;
    expect(parked.p5).toBeLessThanOrEqual(parked.p50);
    expect(parked.p50).toBeLessThanOrEqual(parked.p95);
    expect(parked.p95).toBeGreaterThan(parked.p5);
    const calm = rehearseRuns(d, { ...load, errorRate: 0 }, 3).runs!.figures['outcomes.parked']!;
    expect(calm.p5).toBe(calm.p95);
  });
});
