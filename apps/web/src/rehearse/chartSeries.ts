/** A rehearsal's depth series shaped for the chart: per queue of one design, or what every design holds in its queues. */
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';
import type { ChartSeries } from '../panels/DepthChart';

/** one line per queue that ever held a message (an always-empty queue is a flat line on the axis) */
export function depthSeries(report: RehearsalReport): ChartSeries[] {
  return report.queues.filter((q) => q.peakDepth > 0).map((q) => ({ label: q.name, t: q.series.t, y: q.series.depth }));
}

/** one line per design: the messages held in all its queues at each instant */
export function totalDepthSeries(
  runs: readonly { readonly label: string; readonly report: RehearsalReport }[],
): ChartSeries[] {
  return runs.map(({ label, report }) => {
    // summed by instant: a queue first seen late (none the design declares) starts its series late
    const held = new Map<number, number>();
    for (const q of report.queues)
      q.series.t.forEach((at, i) => held.set(at, (held.get(at) ?? 0) + (q.series.depth[i] ?? 0)));
    const t = [...held.keys()].sort((a, b) => a - b);
    return { label, t, y: t.map((at) => held.get(at) as number) };
  });
}
