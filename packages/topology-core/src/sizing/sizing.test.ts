import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import type { Design } from '../model/design.js';
import { rehearse, type RehearsalLoad } from '../rehearse/index.js';
import { resolveTuneInput } from '../tune/index.js';
import { designWorkSize } from './designWorkSize.js';
import { rehearseSize } from './rehearseSize.js';
import { tuneSize } from './tuneSize.js';
import { checkBudget, type WorkBudget } from './workBudget.js';

const DAY = 24 * 3600_000;
const server: WorkBudget = { holder: 'a request to this server', bytes: 512e6, steps: 2e7, answerBytes: 32e6 };
const design = (): Design => templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
const outage = (startMs: number, endMs: number) => ({ target: 'worker', consumerOutages: [{ startMs, endMs }] });

/** the design with a length limit on its work queue: every message is simulated */
function limited(): Design {
  const d = design();
  const queues = d.topology.queues.map((q, i) =>
    i === 0 ? { ...q, arguments: { ...q.arguments, 'x-max-length': 1_000_000_000 } } : q,
  );
  return { ...d, topology: { ...d.topology, queues } };
}

describe("the issue's reproductions are refused before they run, naming the field", () => {
  it('7 days sampled every 10 ms: the samples, sampleMs', () => {
    const size = rehearseSize(design(), { rate: 10, durationMs: 7 * DAY }, { sampleMs: 10 });
    const v = checkBudget(size, server);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.driver.field).toBe('sampleMs');
    expect(v.dimension).toBe('memory');
    expect(v.message).toMatch(/depth samples .* every 10 ms/);
    expect(v.message).toMatch(/samples fit; take samples less often/);
  });

  it('1e7 messages under a length limit: message by message, load.durationMs', () => {
    const v = checkBudget(rehearseSize(limited(), { rate: 1000, durationMs: 10_000_000 }), server);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.driver).toMatchObject({ field: 'load.durationMs', option: '--duration' });
    expect(v.message).toMatch(/10,000,000 messages simulated one by one \(a length limit on orders\.q/);
  });

  it('50 consumers with their own poison share and 100 outages each: load.targets', () => {
    const d = design();
    const worker = d.consumers.find((c) => c.id === 'worker')!;
    const extra = Array.from({ length: 49 }, (_, i) => ({ ...worker, id: `worker-${i + 2}` }));
    const consumers = [...d.consumers, ...extra];
    const outages = Array.from({ length: 100 }, (_, k) => ({ startMs: k * 60_000, endMs: k * 60_000 + 30_000 }));
    const load: RehearsalLoad = {
      rate: 100,
      durationMs: 6_000_000,
      targets: consumers
        .filter((c) => c.behaviour.kind === 'worker')
        .map((c, i) => ({ target: c.id, consumerOutages: outages, poison: 0.001 * (i + 1) })),
    };
    const v = checkBudget(rehearseSize({ ...d, consumers }, load), server);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.driver.field).toBe('load.targets');
    expect(v.message).toMatch(
      /cohorts \(5,000 consumer outages cut the arrivals .* 50 different poison shares split each in 51\)/,
    );
  });
});

describe('the estimate is never below what a rehearsal holds', () => {
  const cases: [string, Design, RehearsalLoad, { sampleMs?: number }][] = [
    ['per message', design(), { rate: 50, durationMs: 60_000, targets: [outage(10_000, 30_000)] }, {}],
    ['length limit', limited(), { rate: 200, durationMs: 120_000, targets: [outage(10_000, 30_000)] }, {}],
    ['cohorts', design(), { rate: 1000, durationMs: 3_600_000, targets: [outage(600_000, 1_200_000)] }, {}],
    ['fine samples', design(), { rate: 1, durationMs: 3_600_000 }, { sampleMs: 100 }],
  ];
  for (const [name, d, load, opts] of cases)
    it(name, () => {
      const size = rehearseSize(d, load, opts);
      const report = rehearse(d, load, opts);
      const [simulated, samples] = size.parts;
      expect(simulated!.count).toBeGreaterThanOrEqual(report.mode.simulated);
      expect(simulated!.count).toBeLessThanOrEqual(report.mode.simulated * 2);
      const series = report.queues.reduce((n, q) => n + q.series.t.length, 0);
      expect(samples!.count).toBeGreaterThanOrEqual(series);
      expect(size.answerBytes).toBeGreaterThanOrEqual(JSON.stringify(report).length);
      // hops: the estimate counts deliveries x 4; a run takes about 3 hops per delivery
      expect(size.steps).toBeGreaterThanOrEqual(report.hops);
    });

  it('a load that does not fit the design has no size (the rehearsal says what is wrong)', () => {
    expect(rehearseSize(design(), { rate: 1, durationMs: 1000, targets: [{ target: 'nobody' }] }).parts).toEqual([]);
  });
});

describe('tune and whole-design checks', () => {
  it('tune --rate 100 --duration 1000000h fits a 2 GB command: cohorts and bounded samples', () => {
    const r = resolveTuneInput({ rate: 100, durationMs: 1_000_000 * 3_600_000, outageLengthsMs: [] });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const size = tuneSize(r);
    expect(size.parts.length).toBe(2);
    expect(checkBudget(size, { holder: 'this command', bytes: 2e9, steps: Infinity, answerBytes: Infinity })).toEqual({
      ok: true,
    });
  });

  it('tune from a length-limited design at 1e5 msg/s for a day: refused naming --duration', () => {
    const r = resolveTuneInput({ rate: 100_000, durationMs: DAY, outageLengthsMs: [], from: limited() });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const v = checkBudget(tuneSize(r), { holder: 'this command', bytes: 2e9, steps: Infinity, answerBytes: Infinity });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.driver).toMatchObject({ field: 'duration', option: '--duration' });
  });

  it('a design check grows with the objects and names the design', () => {
    const small = designWorkSize('lint', design());
    expect(small.parts[0]!.count).toBe(
      design().topology.queues.length +
        design().topology.exchanges.length +
        design().topology.bindings.length +
        design().consumers.length +
        design().publishers.length +
        (design().topology.policies?.length ?? 0),
    );
    const v = checkBudget(small, { ...server, steps: 10 });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.driver).toMatchObject({ field: 'design', option: 'FILE' });
  });
});
