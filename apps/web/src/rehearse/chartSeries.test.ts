import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { rehearse } from '@retry-studio/topology-core/rehearse';
import { depthSeries, nodeSeries, totalDepthSeries } from './chartSeries';

describe('the Rehearse chart series', () => {
  const built = buildTemplate('dlx-ttl-wait-queue', {});
  if (!built.ok) throw new Error('template');
  const d = built.template.design;
  const worker = d.consumers.find((c) => c.behaviour.kind === 'worker')!.id;
  const report = rehearse(d, {
    rate: 20,
    durationMs: 120_000,
    targets: [{ target: worker, consumerOutages: [{ startMs: 10_000, endMs: 40_000 }] }],
  });

  it('draws only queues that held something, with their own samples', () => {
    const s = depthSeries(report);
    expect(s.length).toBeGreaterThan(0);
    expect(s.map((x) => x.label)).not.toContain('orders.q');
    for (const x of s)
      expect(Math.max(...(x.y as number[]))).toBe(
        Math.max(...report.queues.find((q) => q.name === x.label.replace(' (right axis)', ''))!.series.depth),
      );
  });

  it('a parking lot that dwarfs the wait queue goes on the right axis, so the wait line is not flat on the floor', () => {
    const long = rehearse(d, {
      rate: 20,
      durationMs: 240_000,
      targets: [{ target: worker, consumerOutages: [{ startMs: 10_000, endMs: 190_000 }] }],
    });
    const s = depthSeries(long);
    const parking = s.find((x) => x.label.startsWith('orders.parking'));
    const wait = s.find((x) => x.label === 'orders.wait');
    expect(parking?.right).toBe(true);
    expect(parking?.label).toBe('orders.parking (right axis)');
    expect(wait?.right).toBeUndefined();
  });

  it("the node's RAM and disk in bytes; its watermark once RAM comes near it", () => {
    const [ram, disk, mark] = nodeSeries(report);
    expect(ram!.label).toBe('RAM');
    expect(Math.max(...(ram!.y as number[]))).toBeLessThanOrEqual(report.node.peakMemoryBytes);
    expect(Math.max(...(disk!.y as number[]))).toBeGreaterThan(0);
    // far below a 4 GiB node's watermark: not drawn, it would flatten the RAM line
    expect(mark).toBeUndefined();
    const small = rehearse(d, {
      rate: 20,
      durationMs: 120_000,
      brokerMemoryBytes: 200 * 1024 ** 2,
      targets: [{ target: worker, consumerOutages: [{ startMs: 10_000, endMs: 40_000 }] }],
    });
    const near = nodeSeries(small)[2];
    expect(near?.dash).toEqual([4, 4]);
    expect(near?.y[0]).toBe(small.node.memoryLimitBytes);
  });

  it("sums every queue's depth per instant for a design", () => {
    const [total] = totalDepthSeries([{ label: 'dlx', report }]);
    const i = total!.t.indexOf(report.queues[0]!.series.t[200]!);
    expect(total!.y[i]).toBe(report.queues.reduce((s, q) => s + (q.series.depth[200] ?? 0), 0));
    expect(Math.max(...(total!.y as number[]))).toBeGreaterThan(0);
  });
});
