/**
 * A rehearsal's series shaped for the charts: depth per queue of one design (parking queues on
 * their own axis when they dwarf the retry queues, so both stay readable), what every design holds
 * in its queues, and the node's RAM and disk against its memory watermark.
 */
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';
import type { ChartSeries } from '../panels/DepthChart';

/** a parking queue this many times deeper than the deepest retry queue goes on the right axis */
const DWARFS = 3;

/** one line per queue that ever held a message (an always-empty queue is a flat line on the axis) */
export function depthSeries(report: RehearsalReport): ChartSeries[] {
  const parked = new Set(Object.keys(report.outcomes.parkedIn));
  const used = report.queues.filter((q) => Math.max(0, ...q.series.depth) > 0);
  const retryPeak = Math.max(0, ...used.filter((q) => !parked.has(q.name)).map((q) => Math.max(...q.series.depth)));
  const parkPeak = Math.max(0, ...used.filter((q) => parked.has(q.name)).map((q) => Math.max(...q.series.depth)));
  const split = retryPeak > 0 && parkPeak > DWARFS * retryPeak;
  return used.map((q) => ({
    label: split && parked.has(q.name) ? `${q.name} (right axis)` : q.name,
    t: q.series.t,
    y: q.series.depth,
    ...(split && parked.has(q.name) ? { right: true } : {}),
  }));
}

/** whether depthSeries put parking queues on the right axis */
export const hasParkedAxis = (series: readonly ChartSeries[]): boolean => series.some((s) => s.right);

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

/** the watermark is drawn once RAM comes within this share of it (further off, it would flatten the RAM line) */
const NEAR_WATERMARK = 0.25;

/** the node's RAM and disk over time, and its memory watermark (dashed) when RAM comes near it */
export function nodeSeries(report: RehearsalReport): ChartSeries[] {
  const n = report.node;
  const near = n.peakMemoryBytes >= NEAR_WATERMARK * n.memoryLimitBytes;
  return [
    { label: 'RAM', t: n.series.t, y: n.series.ramBytes },
    { label: 'disk', t: n.series.t, y: n.series.diskBytes },
    ...(near
      ? [
          {
            label: `memory watermark (${n.watermark} of the node's RAM)`,
            t: n.series.t,
            y: n.series.t.map(() => n.memoryLimitBytes),
            dash: [4, 4] as const,
          },
        ]
      : []),
  ];
}
