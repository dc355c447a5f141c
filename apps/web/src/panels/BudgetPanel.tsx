import { useEffect, useState } from 'react';
import {
  computeBudget,
  compareStrategies,
  type BudgetFailure,
  type RetryBudget,
  type StrategyEntry,
} from '@retry-studio/topology-core/budget';
import { joinCollapsed } from '@retry-studio/topology-core/text';
import { outcomeTone } from '@retry-studio/topology-core/sim';
import { useApp } from '../store/store';
import { buildTemplate, listTemplates } from './templates';
import { fmtT } from './SimBar';
import { resolveNodeLoss } from '../sim/nodeLossWhatIf';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion, useFreshness } from '../store/useFreshness';
import { StaleNote } from './StaleNote';

const DEFAULT_COMPARE = ['requeue-once', 'dlx-ttl-wait-queue', 'republish-ttl', 'chained-ttl', 'quorum-delivery-limit'];

function budgetFailure(f: ReturnType<typeof useApp.getState>['failure']): { failure: BudgetFailure; note?: string } {
  if (f.kind === 'failFirst') return { failure: { kind: 'failFirst', n: f.n } };
  if (f.kind === 'always') return { failure: { kind: 'always' } };
  if (f.kind === 'poison') return { failure: { kind: 'poison' } };
  return {
    failure: { kind: 'always' },
    note: `the budget is computed for a failing message; "${f.kind}" is shown as "fail always"`,
  };
}

/** The retry budget of the design, and strategies side by side under the same failure model. */
export function BudgetPanel() {
  const failureModel = useApp((s) => s.failure);
  const [rows, setRows] = useState<RetryBudget[] | null>(null);
  /** the design's budget with the simulation bar's node down, and how much later it ends */
  const [lossRow, setLossRow] = useState<{ node: string; addedMs: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [picked, setPicked] = useState<string[]>(DEFAULT_COMPARE);
  /** the design and version the rows were computed for */
  const [rowsV, setRowsV] = useState<DesignVersion | null>(null);
  const rowsNow = useFreshness(rowsV);
  const { failure, note } = budgetFailure(failureModel);

  const compute = () => {
    setBusy(true);
    setError(null);
    setRowsV(currentVersion());
    // let the button paint "computing" before the simulations run
    setTimeout(() => {
      try {
        const design = useApp.getState().design;
        const mine = computeBudget(design, failure, { label: `${design.name} (this design)` });
        const draft = useApp.getState().nodeLoss;
        const nodeLoss = draft ? resolveNodeLoss(draft, design, useApp.getState().queuePlacement) : undefined;
        const lossy = nodeLoss
          ? computeBudget(design, failure, { label: `${design.name} with ${nodeLoss.node} down`, nodeLoss })
          : undefined;
        setLossRow(
          lossy && nodeLoss ? { node: nodeLoss.node, addedMs: lossy.timeToFinalMs - mine.timeToFinalMs } : null,
        );
        const entries: StrategyEntry[] = [];
        for (const id of picked) {
          const r = buildTemplate(id);
          if (r.ok)
            entries.push({ label: r.built.design.name, design: r.built.design, workConsumers: r.built.workConsumers });
        }
        setRows([mine, ...(lossy ? [lossy] : []), ...compareStrategies(entries, failure)]);
      } catch (e) {
        setError((e as Error).message);
        setRows(null);
      } finally {
        setBusy(false);
      }
    }, 10);
  };

  return (
    <div data-testid="budget-panel" className="flex h-full gap-3 overflow-auto p-2 text-xs text-slate-300">
      <div className="w-44 shrink-0 space-y-2">
        <div>
          Failure model:{' '}
          <b className="text-slate-100">
            {failure.kind === 'failFirst'
              ? `fail the first ${failure.n}`
              : failure.kind === 'always'
                ? 'fail always'
                : 'one poison message'}
          </b>
          {note && <div className="text-[10px] text-amber-300">{note}</div>}
        </div>
        <details>
          <summary className="cursor-pointer text-slate-400">compare with ({picked.length})</summary>
          <div className="mt-1 max-h-28 space-y-0.5 overflow-auto">
            {listTemplates().map((t) => (
              <label key={t.id} className="flex items-center gap-1 text-[11px]">
                <input
                  type="checkbox"
                  checked={picked.includes(t.id)}
                  onChange={(e) => setPicked(e.target.checked ? [...picked, t.id] : picked.filter((p) => p !== t.id))}
                />
                {t.title}
              </label>
            ))}
          </div>
        </details>
        <button
          type="button"
          data-testid="budget-compute"
          disabled={busy}
          onClick={compute}
          className="rounded bg-sky-700 px-2 py-1 hover:bg-sky-600 disabled:opacity-40"
        >
          {busy ? 'Simulating…' : 'Compute budget and compare'}
        </button>
        {rowsNow === 'stale' && <StaleNote what="This budget was" />}
        {lossRow && rowsNow !== 'other-design' && (
          <div data-testid="budget-node-loss" className="text-[11px] text-amber-200">
            {lossRow.node} down adds {fmtT(Math.max(0, lossRow.addedMs))} to the time to final
          </div>
        )}
        {error && rowsNow !== 'other-design' && (
          <div role="alert" className="text-red-400">
            {error}
          </div>
        )}
      </div>
      {rows && rowsNow !== 'other-design' && (
        <div
          data-testid="budget-result"
          data-fresh={rowsNow}
          className={`min-w-0 flex-1 space-y-2 ${rowsNow === 'stale' ? 'opacity-60' : ''}`}
        >
          <ScheduleChart rows={rows} />
          <BudgetTable rows={rows} />
        </div>
      )}
    </div>
  );
}

function BudgetTable({ rows }: { rows: RetryBudget[] }) {
  return (
    <table data-testid="budget-table" className="w-full border-collapse text-[11px]">
      <thead>
        <tr className="text-left text-slate-500">
          <th className="pr-2">strategy</th>
          <th className="pr-2">attempts</th>
          <th className="pr-2">delays</th>
          <th className="pr-2">time to final</th>
          <th className="pr-2">ends</th>
          <th className="pr-2" title="publishes / dead-letterings / routings per failed message">
            pub / DL / route
          </th>
          <th className="pr-2">objects</th>
          <th>risks</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr
            key={i}
            data-testid="budget-row"
            className={`border-t border-slate-800 align-top ${i === 0 ? 'bg-sky-950/40' : ''}`}
          >
            <td className="pr-2 font-semibold text-slate-100">{r.label}</td>
            <td className="pr-2">{r.attempts}</td>
            <td className="pr-2 font-mono">{r.delaysMs.length ? joinCollapsed(r.delaysMs.map(fmtT)) : '—'}</td>
            <td className="pr-2">
              {fmtT(r.timeToFinalMs)}
              {r.truncated ? ' (cut off)' : ''}
            </td>
            <td data-testid="budget-outcome" className="pr-2">
              {r.outcomeText}
            </td>
            <td className="pr-2 font-mono">
              {r.ops.publishes} / {r.ops.deadLetterings} / {r.ops.routings}
            </td>
            <td className="pr-2">{r.objects.total}</td>
            <td className="text-[10px]">
              {r.risks.map((k, j) => (
                <span key={j} title={k.why} className="mr-1 inline-block rounded bg-slate-800 px-1 text-amber-200">
                  {k.kind}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Attempts of the failing message against time, one row per strategy (square-root time axis so seconds and hours both show). */
function ScheduleChart({ rows }: { rows: RetryBudget[] }) {
  const times = rows.map((r) => r.traces[0]?.attemptTimes ?? []);
  const start = rows.map((r, i) => times[i]![0] ?? 0);
  const max = Math.max(1, ...rows.map((r) => r.timeToFinalMs));
  // as wide as the panel gives it, never wider: no sideways scrolling at 1280x800
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const W = Math.max(320, Math.min(900, useWidth(box) ?? 640));
  const ROW = 16;
  const LABEL = Math.min(170, Math.round(W * 0.3));
  const labelChars = Math.floor(LABEL / 6);
  const x = (t: number) => LABEL + Math.sqrt(Math.max(0, t) / max) * (W - LABEL - 10);
  return (
    <div ref={setBox} className="w-full min-w-0">
      <svg
        data-testid="budget-chart"
        role="img"
        aria-label="Retry schedule per strategy"
        width={W}
        height={rows.length * ROW + 18}
        className="block"
      >
        {/* the axis says what it measures and how it is scaled (the ticks carry their units) */}
        <text data-testid="budget-axis-title" x={0} y={rows.length * ROW + 12} fontSize={9} fill="#94a3b8">
          {LABEL >= 170 ? 'time since 1st attempt (√ scale)' : 'time (√ scale)'}
        </text>
        {/* a short schedule rounds several ticks to one label: print each label once */}
        {[0, 0.01, 0.1, 0.25, 0.5, 1]
          .filter((f, i, all) => i === 0 || fmtT(f * max) !== fmtT(all[i - 1]! * max))
          .map((f) => (
            <g key={f}>
              <line x1={x(f * max)} x2={x(f * max)} y1={0} y2={rows.length * ROW} stroke="#1e293b" />
              {/* the last tick ends at the chart's edge: centred, its unit was cut off ("10.00" for 10.00 s) */}
              <text
                data-testid="budget-tick"
                x={x(f * max)}
                y={rows.length * ROW + 12}
                fontSize={9}
                fill="#64748b"
                textAnchor={f === 1 ? 'end' : 'middle'}
              >
                {fmtT(f * max)}
              </text>
            </g>
          ))}
        {rows.map((r, i) => {
          const y = i * ROW + ROW / 2;
          const ts = times[i]!.map((t) => t - start[i]!);
          return (
            <g key={i}>
              <text x={0} y={y + 3} fontSize={10} fill={i === 0 ? '#7dd3fc' : '#cbd5e1'}>
                {r.label.length > labelChars ? `${r.label.slice(0, labelChars - 1)}…` : r.label}
              </text>
              <line x1={x(0)} x2={x(r.timeToFinalMs)} y1={y} y2={y} stroke="#334155" strokeWidth={2} />
              {ts.map((t, j) => (
                <circle
                  key={j}
                  cx={x(t)}
                  cy={y}
                  r={3.5}
                  fill={
                    // green only for what the core calls a good end (a discarded failure is acked, not good)
                    j === ts.length - 1 && outcomeTone(r.outcome) === 'ok' ? '#34d399' : '#f87171'
                  }
                >
                  <title>{`attempt ${j + 1} at ${fmtT(t)}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** The element's content width, following resizes (the results panel and the window). */
function useWidth(el: HTMLElement | null): number | undefined {
  const [w, setW] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setW(Math.floor(e!.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return w;
}
