/**
 * The tuner's answer: the recommendations best first, each with its figures in units (ms as
 * durations, MiB), why it was chosen, what it does at twice the outage (robustness) and what to
 * know about it (a caveat); or, when nothing is feasible, what rules everything out (a capacity
 * shortfall named as one); and the Pareto front as a chart with its tick values.
 */
import {
  paramsText,
  resolveTuneInput,
  type ParetoPoint,
  type Recommendation,
  type TuneInput,
  type TuneMetrics,
  type TuneResult,
} from '@retry-studio/topology-core/tune';
import { formatMs } from '@retry-studio/topology-core/budget';
import { formatBinaryBytes } from '@retry-studio/topology-core/text';
import { useApp } from '../store/store';
import { fieldsFromProfile } from '../rehearse/fromTune';

const ms = (v: number) => formatMs(Math.round(v));
const n = (v: number) => Math.round(v).toLocaleString('en-US');

/** "Compare": the recommendation beside the open design in the Rehearse tab, under the tuner's load */
function compare(r: Recommendation, input: TuneInput): void {
  const resolved = resolveTuneInput(input);
  if (!resolved.ok) return;
  const app = useApp.getState();
  app.requestRehearsal({
    fields: fieldsFromProfile(resolved.profile, app.design),
    compare: [{ label: `${r.strategy} (tuned: ${paramsText(r.params)})`, design: r.design }],
  });
}

function figures(m: TuneMetrics, deadlineMs: number | undefined): string {
  return [
    `p99 ${ms(m.delayMs.p99)}${deadlineMs ? ` (${Math.round((100 * m.delayMs.p99) / deadlineMs)}% of the deadline)` : ''}`,
    `amplification ${m.amplification.toFixed(2)}`,
    `peak depth ${n(m.peakDepth)}${m.peakHeld > 0 ? ` (held ${n(m.peakHeld)})` : ''}`,
    `RAM ${formatBinaryBytes(m.peakMemoryBytes)}`,
    `disk ${formatBinaryBytes(m.peakDiskBytes)}`,
    `parked ${n(m.outcomes.parked)}`,
    m.drainMs === null ? 'never back to normal' : `back to normal ${ms(m.drainMs)} after the outage`,
  ].join(' · ');
}

function RecommendationCard({
  r,
  i,
  input,
  deadlineMs,
}: {
  r: Recommendation;
  i: number;
  input: TuneInput;
  deadlineMs?: number;
}) {
  const rb = r.robustness;
  return (
    <li data-testid="tune-recommendation" className="rounded border border-slate-800 p-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="truncate">
          <b className="text-slate-100">
            {i + 1}. {r.strategy}
          </b>{' '}
          <span className="text-slate-400">{paramsText(r.params)}</span>
        </span>
        <button
          type="button"
          data-testid="tune-open"
          onClick={() => {
            // a tuned design is work: kept in My designs, and the switch is one undo step
            useApp
              .getState()
              .loadDesign({ ...r.design, name: `${r.strategy} (tuned: ${paramsText(r.params)})` }, { pristine: false });
            useApp.getState().notify(`Opened ${r.strategy}, tuned`);
          }}
          className="shrink-0 rounded bg-sky-800 px-2 py-0.5 hover:bg-sky-700"
        >
          Open
        </button>
        <button
          type="button"
          data-testid="tune-compare"
          title="Rehearse it beside the open design under this load"
          onClick={() => compare(r, input)}
          className="shrink-0 rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
        >
          Compare
        </button>
      </div>
      <div className="text-slate-300">{figures(r.metrics, deadlineMs)}</div>
      <div className="text-slate-500">{r.why}</div>
      {rb && (
        <div data-testid="tune-robustness" className={rb.misses.length === 0 ? 'text-emerald-300' : 'text-amber-300'}>
          at twice the outage ({ms(rb.outageLengthMs)}):{' '}
          {rb.misses.length === 0
            ? 'still meets every goal'
            : `misses ${rb.misses.map((m) => m.message.replace(/^[^:]*outage: /, '')).join('; ')}`}
          <span className="text-slate-500"> · {figures(rb.metrics, deadlineMs)}</span>
        </div>
      )}
      {r.caveat && (
        <div data-testid="tune-caveat" className="text-amber-200/90">
          caveat: {r.caveat}
        </div>
      )}
    </li>
  );
}

export function TuneResultView({ result, input }: { result: TuneResult; input: TuneInput }) {
  const s = result.stats;
  const searched = `${n(s.candidates)} candidates, ${n(s.pruned)} cut before rehearsal, ${n(s.rehearsals)} rehearsals, ${ms(s.wallMs)}`;
  if (!result.feasible)
    return (
      <div data-testid="tune-infeasible" className="min-w-0 flex-1 space-y-1">
        <div className="font-semibold text-amber-300">No feasible design ({searched})</div>
        {(result.infeasibleBecause ?? []).map((b) => (
          <div key={b.goal}>
            {b.goal === 'capacity' ? (
              <b className="text-slate-100">capacity shortfall</b>
            ) : (
              <>
                ruled out by <b className="text-slate-100">{b.goal}</b>
              </>
            )}
            : {b.message}
          </div>
        ))}
      </div>
    );
  const best = result.recommendations[0];
  return (
    <div data-testid="tune-result" className="flex min-w-0 flex-1 flex-wrap gap-3">
      <div className="min-w-[22rem] flex-1 space-y-1">
        {best && (
          <div
            data-testid="tune-verdict"
            className="rounded border border-slate-800 bg-slate-900/60 p-1.5 text-[12px] text-slate-200"
          >
            Best: <b>{best.strategy}</b> {paramsText(best.params)}: {best.why}.
            {best.robustness && best.robustness.misses.length > 0
              ? ` At twice the outage it misses ${best.robustness.misses.map((m) => m.goal).join(', ')}.`
              : best.robustness
                ? ' It still holds at twice the outage.'
                : ''}
          </div>
        )}
        <div className="text-slate-500">
          Best first: fewest broker operations, then RAM, then disk, then objects ({searched})
        </div>
        <ol className="space-y-1">
          {result.recommendations.map((r, i) => (
            <RecommendationCard
              key={i}
              r={r}
              i={i}
              input={input}
              {...(input.deadlineMs !== undefined ? { deadlineMs: input.deadlineMs } : {})}
            />
          ))}
        </ol>
      </div>
      <ParetoChart points={result.pareto} />
    </div>
  );
}

/** `count` round values from lo to hi */
function ticks(lo: number, hi: number, count: number): number[] {
  if (hi <= lo) return [lo];
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/** p99 delay (x) against amplification (y) for the Pareto front, tick values on both axes; a dot's size is its peak RAM */
function ParetoChart({ points }: { points: readonly ParetoPoint[] }) {
  const W = 330;
  const H = 210;
  const left = 46;
  const bottom = 40;
  const top = 10;
  const right = 14;
  if (points.length === 0) return null;
  const xs = points.map((p) => p.p99DelayMs);
  const ys = points.map((p) => p.amplification);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(1, ...ys), Math.max(1.1, ...ys)];
  const mx = Math.max(1, ...points.map((p) => p.peakMemoryBytes));
  const span = Math.max(1, x1 - x0);
  const sx = (v: number) => left + ((v - x0) / span) * (W - left - right);
  const sy = (v: number) => H - bottom - ((v - y0) / Math.max(0.01, y1 - y0)) * (H - bottom - top);
  return (
    <figure data-testid="tune-pareto" className="shrink-0">
      <svg width={W} height={H} role="img" aria-label="Pareto front: p99 delay against amplification">
        <line x1={left} y1={H - bottom} x2={W - right} y2={H - bottom} stroke="#475569" />
        <line x1={left} y1={top} x2={left} y2={H - bottom} stroke="#475569" />
        {(x1 > x0 ? ticks(x0, x1, 3) : [x0]).map((v, i) => (
          <g key={`x${i}`}>
            <line x1={sx(v)} y1={H - bottom} x2={sx(v)} y2={H - bottom + 4} stroke="#475569" />
            <text
              data-testid="tune-pareto-xtick"
              x={sx(v)}
              y={H - bottom + 15}
              fill="#cbd5e1"
              fontSize="11"
              textAnchor={x1 > x0 ? (i === 0 ? 'start' : i === 2 ? 'end' : 'middle') : 'start'}
            >
              {ms(v)}
            </text>
          </g>
        ))}
        {ticks(y0, y1, 4).map((v, i) => (
          <g key={`y${i}`}>
            <line x1={left - 4} y1={sy(v)} x2={left} y2={sy(v)} stroke="#475569" />
            <text
              data-testid="tune-pareto-ytick"
              x={left - 6}
              y={sy(v) + 4}
              fill="#cbd5e1"
              fontSize="11"
              textAnchor="end"
            >
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        <text x={(left + W - right) / 2} y={H - 6} fill="#94a3b8" fontSize="11" textAnchor="middle">
          p99 delay, longest outage
        </text>
        <text
          x={11}
          y={(H - bottom) / 2}
          fill="#94a3b8"
          fontSize="11"
          textAnchor="middle"
          transform={`rotate(-90 11 ${(H - bottom) / 2})`}
        >
          amplification
        </text>
        {points.map((p, i) => (
          <circle
            key={i}
            cx={sx(p.p99DelayMs)}
            cy={sy(p.amplification)}
            r={3 + 5 * Math.sqrt(p.peakMemoryBytes / mx)}
            fill="#38bdf8"
            fillOpacity={0.6}
          >
            <title>{`${p.strategy} ${paramsText(p.params)}${p.equivalent ? ` and ${p.equivalent.length} equivalent` : ''}: p99 ${ms(p.p99DelayMs)}, amplification ${p.amplification.toFixed(2)}, RAM ${formatBinaryBytes(p.peakMemoryBytes)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="max-w-[330px] text-[11px] text-slate-400">
        Pareto front: {points.length} entr{points.length === 1 ? 'y' : 'ies'}
        {points.some((p) => p.equivalent)
          ? ` (${points.reduce((k, p) => k + (p.equivalent?.length ?? 0), 0)} equivalent parameter sets folded in)`
          : ''}
        ; dot size: peak RAM
      </figcaption>
    </figure>
  );
}
