/**
 * A time chart of a rehearsal, one line per series, outage windows shaded: queue depths (messages),
 * or the node's RAM and disk (bytes). Axes say their unit; each y axis is as wide as its longest
 * label (no clipped "00,000"), the time axis keeps its labels apart, and a series on its own scale
 * (a parking lot beside the wait queue it dwarfs) goes on the right axis, so no line hides under
 * another. uPlot draws it: a rehearsal of an hour has thousands of samples per queue and a
 * comparison overlays several designs, and uPlot (canvas, ~50 KB, no dependencies) draws 100k points
 * per series without stutter, where SVG charting libraries build a DOM node per point.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMs } from '@retry-studio/topology-core/budget';
import { formatBinaryBytes } from '@retry-studio/topology-core/text';

export interface ChartSeries {
  readonly label: string;
  readonly t: readonly number[];
  readonly y: readonly (number | null)[];
  /** the right-hand axis (its own scale) */
  readonly right?: boolean;
  readonly dash?: readonly number[];
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
    const at = new Map<number, number | null>();
    s.t.forEach((t, i) => at.set(t, s.y[i] ?? null));
    return xs.map((x) => at.get(x) ?? null);
  });
  return [xs, ...cols] as uPlot.AlignedData;
}

export type ChartUnit = 'messages' | 'bytes';

const valueText = (unit: ChartUnit) => (v: number) =>
  unit === 'bytes' ? formatBinaryBytes(v) : Math.round(v).toLocaleString('en-US');

/** a y axis as wide as its widest label (11 px text: about 6.6 px a character) */
const fit = (_u: uPlot, values: string[] | null): number =>
  18 + Math.ceil(7 * Math.max(3, ...(values ?? []).map((v) => (v ?? '').length)));

export function DepthChart({
  series,
  shaded,
  height,
  testId,
  unit = 'messages',
  leftLabel,
  rightLabel,
}: {
  series: readonly ChartSeries[];
  shaded: readonly ShadedSpan[];
  height: number;
  testId: string;
  unit?: ChartUnit;
  leftLabel?: string;
  rightLabel?: string;
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
    const text = valueText(unit);
    const axis = {
      stroke: '#cbd5e1',
      grid: { stroke: '#1e293b' },
      ticks: { stroke: '#334155' },
      font: '11px system-ui, sans-serif',
      labelFont: '11px system-ui, sans-serif',
    };
    const hasRight = series.some((s) => s.right);
    const yValues = (_u: uPlot, vals: number[]) => vals.map((v) => text(v));
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      scales: { x: { time: false }, ...(hasRight ? { right: { auto: true } } : {}) },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
      axes: [
        {
          ...axis,
          label: 'time since the load began',
          labelSize: 18,
          space: 80,
          values: (_u, vals) => vals.map((v) => formatMs(Math.round(v))),
        },
        { ...axis, label: leftLabel ?? unit, labelSize: 16, size: fit, values: yValues },
        ...(hasRight
          ? [
              {
                ...axis,
                scale: 'right',
                side: 1 as const,
                grid: { show: false },
                label: rightLabel ?? unit,
                labelSize: 16,
                size: fit,
                values: yValues,
              },
            ]
          : []),
      ],
      series: [
        { label: 'time', value: (_u, v) => (v == null ? '' : formatMs(Math.round(v))) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          width: 1.5,
          ...(s.right ? { scale: 'right' } : {}),
          ...(s.dash ? { dash: [...s.dash] } : {}),
          value: (_u: uPlot, v: number | null) => (v == null ? '' : text(v)),
        })),
      ],
      hooks: { drawAxes: [shade] },
    };
    const plot = new uPlot(opts, alignSeries(series), el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, shaded, height, unit, leftLabel, rightLabel]);
  return <div ref={box} data-testid={testId} className="rehearse-chart min-w-0 text-[11px] text-slate-300" />;
}
