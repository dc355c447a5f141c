/**
 * Depth over time, one line per series, outage windows shaded. uPlot draws it: a rehearsal of an
 * hour has thousands of samples per queue and a comparison overlays several designs, and uPlot
 * (canvas, ~50 KB, no dependencies) draws 100k points per series without stutter, where SVG
 * charting libraries build a DOM node per point.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMs } from '@retry-studio/topology-core/budget';

export interface ChartSeries {
  readonly label: string;
  readonly t: readonly number[];
  readonly y: readonly number[];
}

export interface ShadedSpan {
  readonly startMs: number;
  readonly endMs: number;
}

export const COLORS = [
  '#38bdf8',
  '#f472b6',
  '#a3e635',
  '#fbbf24',
  '#c084fc',
  '#34d399',
  '#fb7185',
  '#60a5fa',
  '#facc15',
  '#f97316',
];

/** every series on one time axis (the union of their instants; a series with no sample there has a gap) */
export function alignSeries(series: readonly ChartSeries[]): uPlot.AlignedData {
  const xs = [...new Set(series.flatMap((s) => s.t))].sort((a, b) => a - b);
  const cols = series.map((s) => {
    const at = new Map<number, number>();
    s.t.forEach((t, i) => at.set(t, s.y[i] as number));
    return xs.map((x) => at.get(x) ?? null);
  });
  return [xs, ...cols] as uPlot.AlignedData;
}

export function DepthChart({
  series,
  shaded,
  height,
  testId,
}: {
  series: readonly ChartSeries[];
  shaded: readonly ShadedSpan[];
  height: number;
  testId: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const shade = (u: uPlot) => {
      const { ctx, bbox } = u;
      ctx.save();
      ctx.fillStyle = 'rgba(248, 113, 113, 0.16)';
      for (const s of shaded) {
        const x0 = u.valToPos(s.startMs, 'x', true);
        const x1 = u.valToPos(s.endMs, 'x', true);
        ctx.fillRect(
          Math.max(bbox.left, x0),
          bbox.top,
          Math.min(bbox.left + bbox.width, x1) - Math.max(bbox.left, x0),
          bbox.height,
        );
      }
      ctx.restore();
    };
    const axis = { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, ticks: { stroke: '#334155' } };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      scales: { x: { time: false } },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
      axes: [
        { ...axis, values: (_u, vals) => vals.map((v) => formatMs(v)) },
        { ...axis, size: 56, values: (_u, vals) => vals.map((v) => v.toLocaleString('en-US')) },
      ],
      series: [
        { label: 'time', value: (_u, v) => (v == null ? '' : formatMs(v)) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          width: 1.5,
          value: (_u: uPlot, v: number | null) => (v == null ? '' : v.toLocaleString('en-US')),
        })),
      ],
      hooks: { drawAxes: [shade] },
    };
    const plot = new uPlot(opts, alignSeries(series), el);
    const fit = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height }));
    fit.observe(el);
    return () => {
      fit.disconnect();
      plot.destroy();
    };
  }, [series, shaded, height]);
  return <div ref={box} data-testid={testId} className="rehearse-chart min-w-0 text-[11px] text-slate-300" />;
}
