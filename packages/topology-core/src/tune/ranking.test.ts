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
  peakMemoryBytes: 1e6,
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
  it('orders by broker operations, treating 1% as a tie so memory decides, then objects', () => {
    expect(
      compareCost({ brokerOps: 100, memoryBytes: 9, objects: 9 }, { brokerOps: 200, memoryBytes: 1, objects: 1 }),
    ).toBeLessThan(0);
    expect(
      compareCost({ brokerOps: 1000, memoryBytes: 5, objects: 9 }, { brokerOps: 1005, memoryBytes: 1, objects: 1 }),
    ).toBeGreaterThan(0);
    expect(
      compareCost({ brokerOps: 1000, memoryBytes: 1, objects: 3 }, { brokerOps: 1000, memoryBytes: 1, objects: 5 }),
    ).toBeLessThan(0);
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
});
