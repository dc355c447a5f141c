import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { uniformCalibration } from '../../testing/calibrationFixtures.js';
import { rehearse, RehearsalLoadError } from './rehearse.js';
import type { RehearsalLoad } from './load.js';
import type { RehearsalReport } from './report.js';

const outage = (target: string, startMs: number, endMs: number) => ({ target, consumerOutages: [{ startMs, endMs }] });
const peakOf = (r: RehearsalReport, q: string): number => r.queues.find((x) => x.name === q)?.peakDepth ?? -1;

describe('rehearse: figures worked out by hand', () => {
  it('dlx-ttl-wait-queue, 2 s wait, 5 retries, 30 s outage: the first 20 s of arrivals in the outage end parked', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    // 10 msg/s for 60 s; the worker is down from 10 s to 40 s; attempts at t, t+2 s, ..., t+10 s
    const calibration = uniformCalibration({ ramBytes: 640, bodyInRam: 1, diskBytes: 200 });
    const load = { rate: 10, durationMs: 60_000, targets: [outage('worker', 10_000, 40_000)] };
    const r = rehearse(d, load, { calibration });
    expect(r.mode.kind).toBe('per-message');
    expect(r.messages).toBe(600);
    // parked: arrivals in [10 s, 30 s) fail all 6 attempts; everything else is acked
    expect(r.outcomes).toEqual({
      acked: 400,
      parked: 200,
      parkedIn: { 'orders.parking': 200 },
      dropped: 0,
      expired: 0,
      inFlight: 0,
    });
    // 100 before (1 each) + 200 parked (6 each) + [30 s, 40 s) 20 x (6, 5, 4, 3, 2) + 200 after (1 each)
    expect(r.deliveries).toBe(100 + 1200 + 20 * (6 + 5 + 4 + 3 + 2) + 200);
    expect(r.amplification).toBeCloseTo(1900 / 600, 3);
    expect(r.delayMs?.max).toBe(10_000);
    expect(r.delayMs?.p50).toBe(0);
    // in the outage every retrying message spends its time in the wait queue: 10 s of arrivals
    expect(peakOf(r, 'orders.wait')).toBe(100);
    expect(peakOf(r, 'orders.parking')).toBe(200);
    // the wait queue empties within one wait after the outage ends (the last one went in at 39.9 s)
    expect(r.drainMs).toBe(1900);
    // the storm: 100 looping messages, each back every 2 s
    expect(r.brokerOps.retriesPerSec).toBe(50);
    // the bill: 100 messages in the wait queue at 640 B + the body in RAM, 200 B + the body on disk
    const wait = r.queues.find((q) => q.name === 'orders.wait');
    expect(wait?.peakMemoryBytes).toBe(100 * (640 + 1024));
    expect(wait?.peakDiskBytes).toBe(100 * (200 + 1024));
    expect(r.calibration).toMatchObject({ brokerVersion: '3.10.8', source: 'given' });
  });

  it('chained-ttl, waits 1 s and 2 s, every tier down for 20 s (one tier named by its queue)', () => {
    const d = templateDesign('chained-ttl', { delaysMs: [1000, 2000] });
    const load: RehearsalLoad = {
      rate: 10,
      durationMs: 60_000,
      targets: [
        outage('worker-0', 10_000, 30_000),
        outage('orders.work.1', 10_000, 30_000),
        outage('worker-2', 10_000, 30_000),
      ],
    };
    const r = rehearse(d, load);
    // attempts at t, t+1 s, t+3 s: parked when t in [10 s, 27 s)
    expect(r.outcomes.parked).toBe(170);
    expect(r.outcomes.parkedIn).toEqual({ 'orders.parking': 170 });
    expect(r.outcomes.acked).toBe(430);
    // 100 x1 + 170 x3 + [27 s, 29 s) 20 x3 + [29 s, 30 s) 10 x2 + 300 x1
    expect(r.deliveries).toBe(100 + 510 + 60 + 20 + 300);
    expect(r.delayMs?.max).toBe(3000);
    expect(peakOf(r, 'orders.wait.2')).toBe(20);
  });

  it('quorum-delivery-limit 3: an outage dead-letters each arrival after 4 back-to-back attempts', () => {
    const d = templateDesign('quorum-delivery-limit', { deliveryLimit: 3 });
    const r = rehearse(d, { rate: 10, durationMs: 30_000, targets: [outage('worker', 5000, 15_000)] });
    expect(r.outcomes).toEqual({
      acked: 200,
      parked: 100,
      parkedIn: { 'jobs.dead': 100 },
      dropped: 0,
      expired: 0,
      inFlight: 0,
    });
    expect(r.deliveries).toBe(200 + 100 * 4);
    expect(r.amplification).toBe(2);
    expect(r.delayMs?.max).toBe(0);
    expect(r.drainMs).toBe(0);
  });

  it('quorum-delayed-retry (4.3): returns wait 1, 2, 3 s; arrivals in the first 14 s of a 20 s outage end dead', () => {
    const d = templateDesign('quorum-delayed-retry', { deliveryLimit: 3, minDelayMs: 1000, maxDelayMs: 10_000 });
    const r = rehearse(d, { rate: 10, durationMs: 30_000, targets: [outage('worker', 5000, 25_000)] });
    // attempts at t, t+1 s, t+3 s, t+6 s: dead when t in [5 s, 19 s)
    expect(r.outcomes.parked).toBe(140);
    expect(r.outcomes.acked).toBe(160);
    expect(r.delayMs?.max).toBe(6000);
    // the queue holds the returned messages while they wait (6 s of arrivals), and the broker does not count them
    const q = r.queues.find((x) => x.name === 'jobs.q');
    expect(q?.peakHeld).toBe(60);
    expect(q?.peakDepth).toBe(0);
    expect(Math.max(...q!.series.depth)).toBe(60);
  });
});

describe('rehearse: with random errors the cohorts say which figures are approximate', () => {
  it('outcomes hold as a sample (within 3% of the messages); the bound names the depths, the storm and the delays as approximate', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 3 });
    const load = {
      rate: 50,
      durationMs: 120_000,
      errorRate: 0.05,
      poison: 0.01,
      targets: [outage('worker', 20_000, 50_000)],
    };
    const exact = rehearse(d, load, { perMessage: true });
    const cohorts = rehearse(d, load, { maxSimulated: 400 });
    expect(cohorts.mode.kind).toBe('cohorts');
    expect(cohorts.mode.bound).toMatch(/the retry queues' depths, the storm and the delays are approximate/);
    for (const k of ['acked', 'parked'] as const)
      expect(Math.abs(cohorts.outcomes[k] - exact.outcomes[k]), k).toBeLessThanOrEqual(0.03 * exact.messages);
    expect(Math.abs(cohorts.deliveries - exact.deliveries)).toBeLessThanOrEqual(0.05 * exact.deliveries);
  });
});

describe('rehearse: cohorts give the per-message answer', () => {
  const cases: [string, Record<string, unknown>, RehearsalLoad][] = [
    [
      'dlx-ttl-wait-queue',
      { delayMs: 2000, maxRetries: 5 },
      { rate: 50, durationMs: 120_000, targets: [outage('worker', 20_000, 50_000)] },
    ],
    [
      'chained-ttl',
      { delaysMs: [1000, 5000] },
      {
        rate: 40,
        durationMs: 90_000,
        targets: [outage('worker-0', 10_000, 40_000), outage('worker-1', 12_000, 30_000)],
      },
    ],
    [
      'quorum-delivery-limit',
      {},
      { rate: 30, durationMs: 60_000, poison: 0.05, targets: [outage('worker', 5000, 25_000)] },
    ],
    [
      'quorum-delayed-retry',
      {},
      {
        phases: [
          { at: 0, rate: 20 },
          { at: 20_000, rate: 60 },
        ],
        durationMs: 60_000,
        targets: [outage('worker', 15_000, 35_000)],
      },
    ],
  ];
  for (const [id, params, load] of cases)
    it(`${id}: outcomes, deliveries and delays equal; depths within one cohort`, () => {
      const d = templateDesign(id, params);
      const exact = rehearse(d, load, { perMessage: true });
      const cohorts = rehearse(d, load, { maxSimulated: 200 });
      expect(cohorts.mode.kind).toBe('cohorts');
      expect(cohorts.mode.simulated).toBeLessThan(exact.mode.simulated / 4);
      expect(cohorts.messages).toBe(exact.messages);
      if (load.poison === undefined) {
        expect(cohorts.outcomes).toEqual(exact.outcomes);
        expect(cohorts.deliveries).toBe(exact.deliveries);
        expect(cohorts.delayMs).toEqual(exact.delayMs);
      } else {
        // poison is split by share in cohorts, drawn per message in the reference: a sample of it
        expect(Math.abs(cohorts.outcomes.parked - exact.outcomes.parked)).toBeLessThanOrEqual(0.02 * exact.messages);
        expect(Math.abs(cohorts.deliveries - exact.deliveries)).toBeLessThanOrEqual(0.05 * exact.deliveries);
      }
      const perCohort = Math.ceil(((load.rate ?? 60) * (cohorts.mode.bucketMs ?? 0)) / 1000);
      for (const q of exact.queues)
        expect(Math.abs(peakOf(cohorts, q.name) - q.peakDepth), q.name).toBeLessThanOrEqual(
          2 * perCohort + 0.02 * q.peakDepth,
        );
      // a cohort's events are spread over the time its messages took to arrive
      for (const k of ['publishesPerSec', 'deadLettersPerSec', 'deliveriesPerSec', 'retriesPerSec'] as const)
        expect(Math.abs(cohorts.brokerOps[k] - exact.brokerOps[k]), k).toBeLessThanOrEqual(
          0.05 * exact.brokerOps[k] + 1,
        );
    });
});

describe('rehearse: load', () => {
  it('bounded concurrency queues the work: 2 at a time x 100 ms serves 20/s, 30/s arrive', () => {
    const d = templateDesign('dlx-ttl-wait-queue');
    const r = rehearse(d, { rate: 30, durationMs: 10_000, processingMs: 100, concurrency: 2 });
    // 10 more arrive than leave each second: about 100 behind after 10 s, served by 15 s
    expect(peakOf(r, 'orders.q')).toBeGreaterThanOrEqual(98);
    expect(peakOf(r, 'orders.q')).toBeLessThanOrEqual(102);
    expect(r.outcomes.acked).toBe(300);
    expect(r.delayMs?.max).toBeGreaterThanOrEqual(4900);
    expect(r.delayMs?.max).toBeLessThanOrEqual(5200);
    const cohorts = rehearse(
      d,
      { rate: 30, durationMs: 10_000, processingMs: 100, concurrency: 2 },
      { maxSimulated: 60 },
    );
    expect(Math.abs(peakOf(cohorts, 'orders.q') - peakOf(r, 'orders.q'))).toBeLessThanOrEqual(10);
    expect(Math.abs((cohorts.delayMs?.p95 ?? 0) - (r.delayMs?.p95 ?? 0))).toBeLessThanOrEqual(600);
  });

  it('an error rate fails about that share of attempts, the same with the same seed', () => {
    const d = templateDesign('quorum-delivery-limit', { deliveryLimit: 0 });
    const a = rehearse(d, { rate: 100, durationMs: 20_000, errorRate: 0.1, seed: 7 });
    // delivery limit 0: one failure dead-letters
    expect(a.outcomes.parked).toBeGreaterThan(150);
    expect(a.outcomes.parked).toBeLessThan(250);
    expect(rehearse(d, { rate: 100, durationMs: 20_000, errorRate: 0.1, seed: 7 }).outcomes).toEqual(a.outcomes);
  });

  it('a big load runs as cohorts and says what they may differ by', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const r = rehearse(d, { rate: 200, durationMs: 600_000, targets: [outage('worker', 60_000, 120_000)] });
    expect(r.mode.kind).toBe('cohorts');
    expect(r.mode.bound).toMatch(/one cohort/);
    // arrivals in [60 s, 110 s) park: 10,000
    expect(r.outcomes.parked).toBe(10_000);
    expect(r.outcomes.acked).toBe(110_000);
  });

  it('refuses a load that does not fit, naming the field', () => {
    const d = templateDesign('dlx-ttl-wait-queue');
    const fails = (load: RehearsalLoad): string[] => {
      try {
        rehearse(d, load);
        return [];
      } catch (e) {
        expect(e).toBeInstanceOf(RehearsalLoadError);
        return (e as RehearsalLoadError).issues.map((i) => i.path);
      }
    };
    expect(fails({ rate: 0, durationMs: 1000 })).toEqual(['rate']);
    expect(fails({ rate: 5, durationMs: -1 })).toContain('durationMs');
    expect(fails({ rate: 5, durationMs: 1000, errorRate: 1.5 })).toEqual(['errorRate']);
    expect(fails({ rate: 5, durationMs: 1000, targets: [outage('nobody', 0, 500)] })).toEqual(['targets[0].target']);
    expect(fails({ rate: 5, durationMs: 1000, targets: [outage('worker', 2000, 3000)] })).toEqual([
      'targets[0].consumerOutages[0].startMs',
    ]);
    expect(fails({ rate: 5, durationMs: 1000, targets: [outage('worker', 500, 3000)] })).toEqual([
      'targets[0].consumerOutages[0].endMs',
    ]);
  });
});
