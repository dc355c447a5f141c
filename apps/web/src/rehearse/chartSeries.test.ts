import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { rehearse } from '@retry-studio/topology-core/rehearse';
import { depthSeries, totalDepthSeries } from './chartSeries';

describe('the Rehearse chart series', () => {
  const built = buildTemplate('dlx-ttl-wait-queue', {});
  if (!built.ok) throw new Error('template');
  const d = built.template.design;
  const worker = d.consumers.find((c) => c.behaviour.kind === 'worker')!.id;
  const report = rehearse(d, {
    rate: 20,
    durationMs: 120_000,
    targets: [{ target: worker, outages: [{ startMs: 10_000, endMs: 40_000 }] }],
  });

  it('draws only queues that held something, with their own samples', () => {
    const s = depthSeries(report);
    expect(s.length).toBeGreaterThan(0);
    expect(s.map((x) => x.label)).not.toContain('orders.q');
    for (const x of s) expect(Math.max(...x.y)).toBe(report.queues.find((q) => q.name === x.label)!.peakDepth);
  });

  it("sums every queue's depth per instant for a design", () => {
    const [total] = totalDepthSeries([{ label: 'dlx', report }]);
    const i = total!.t.indexOf(report.queues[0]!.series.t[200]!);
    expect(total!.y[i]).toBe(report.queues.reduce((s, q) => s + (q.series.depth[200] ?? 0), 0));
    expect(Math.max(...total!.y)).toBeGreaterThan(0);
  });
});
