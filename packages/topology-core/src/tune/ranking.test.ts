import { describe, expect, it } from 'vitest';
import { compareCost } from './cost.js';
import { goalMisses } from './goals.js';
import { paretoFront } from './pareto.js';
import type { ParetoPoint, TuneMetrics } from './types.js';

const metrics = (over: Partial<TuneMetrics> = {}): TuneMetrics => ({
  outageLengthMs: 600_000,
  messages: 1000,
  outcomes: { acked: 1000, parked: 0, dropped: 0, expired: 0, inFlight: 0 },
  lostGood: 0,
  deliveries: 1200,
  amplification: 1.2,
  delayMs: { p50: 1, p95: 10, p99: 100, max: 1000 },
  withinDeadline: 1,
  drainMs: 5000,
  peakDepth: 100,
  peakHeld: 0,
  peakMemoryBytes: 1e6,
  peakDiskBytes: 2e6,
  brokerOps: 3000,
  ...over,
});

describe('goalMisses', () => {
  it('meets every goal it is not missing', () =>
    expect(
      goalMisses(metrics(), {
        deadlineMs: 60_000,
        deadlineShare: 0.99,
        maxAmplification: 2,
        maxMemoryBytes: 2e6,
        maxDepth: 200,
      }),
    ).toEqual([]));
  it('names each goal missed, with the outage and the figure', () => {
    const m = goalMisses(
      metrics({ lostGood: 3, withinDeadline: 0.9, amplification: 2.5, peakMemoryBytes: 3e6, peakDepth: 300 }),
      {
        deadlineMs: 60_000,
        deadlineShare: 0.99,
        maxAmplification: 2,
        maxMemoryBytes: 2e6,
        maxDepth: 200,
      },
    );
    expect(m.map((x) => x.goal)).toEqual(['no-loss', 'deadline', 'max-amplification', 'max-memory', 'max-depth']);
    expect(m[1]!.message).toBe(
      '10 min outage: 90% of the messages that can succeed are acked within 1 min, the goal is 99%',
    );
  });
});

describe('cost', () => {
  const c = (brokerOps: number, memoryBytes: number, diskBytes: number, objects: number) => ({
    brokerOps,
    memoryBytes,
    diskBytes,
    objects,
  });
  it('orders by broker operations, treating 1% as a tie so RAM decides, then disk, then objects', () => {
    expect(compareCost(c(100, 9, 9, 9), c(200, 1, 1, 1))).toBeLessThan(0);
    expect(compareCost(c(1000, 5, 1, 9), c(1005, 1, 1, 1))).toBeGreaterThan(0);
    expect(compareCost(c(1000, 1, 5, 1), c(1000, 1, 1, 9))).toBeGreaterThan(0);
    expect(compareCost(c(1000, 1, 1, 3), c(1000, 1, 1, 5))).toBeLessThan(0);
  });
  it('a capacity problem is a goal missed, said as such', () => {
    const m = goalMisses(metrics({ capacity: 'jobs.q runs a hot loop at 12000/s' }), { deadlineShare: 0.99 });
    expect(m.map((x) => x.goal)).toEqual(['capacity']);
    expect(m[0]!.message).toMatch(/hot loop/);
  });
});

describe('paretoFront', () => {
  const p = (name: string, p99DelayMs: number, amplification: number, peakMemoryBytes: number): ParetoPoint => ({
    strategy: name,
    params: {},
    p99DelayMs,
    amplification,
    peakMemoryBytes,
  });
  it('keeps the points no other beats on delay, amplification and memory together', () => {
    const front = paretoFront([
      p('fast', 10, 3, 5),
      p('cheap', 100, 1.1, 5),
      p('worse', 100, 3, 5),
      p('lean', 200, 2, 1),
    ]);
    expect(front.map((x) => x.strategy)).toEqual(['fast', 'cheap', 'lean']);
  });
  it('parameter sets with the same figures are one entry "and N equivalent"', () => {
    const front = paretoFront([p('a', 10, 3, 5), p('b', 10, 3, 5), p('c', 10, 3, 5), p('d', 100, 1, 5)]);
    expect(front.map((x) => x.strategy)).toEqual(['a', 'd']);
    expect(front[0]!.equivalent?.map((e) => e.strategy)).toEqual(['b', 'c']);
  });
});
