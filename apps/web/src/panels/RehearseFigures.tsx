/**
 * A rehearsal's bill of materials beside its chart: the outcome counts, amplification, drain time
 * and the storm peak, one column per strategy, and the delay distribution as bars (p50 to max on
 * one scale, so strategies compare at a glance).
 */
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';
import { formatMs } from '@retry-studio/topology-core/budget';
import type { RehearsedRun } from '../sim/rehearseWorker';

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const mb = (b: number) => `${+(b / 1e6).toFixed(1)} MB`;

interface Row {
  readonly label: string;
  readonly value: (r: RehearsalReport) => string;
  readonly title?: (r: RehearsalReport) => string;
}

const ROWS: readonly Row[] = [
  { label: 'messages', value: (r) => n(r.messages) },
  { label: 'acked', value: (r) => n(r.outcomes.acked) },
  {
    label: 'parked',
    value: (r) => n(r.outcomes.parked),
    title: (r) =>
      Object.entries(r.outcomes.parkedIn)
        .map(([q, c]) => `${q}: ${n(c)}`)
        .join('\n') || 'nothing parked',
  },
  { label: 'dropped', value: (r) => n(r.outcomes.dropped) },
  { label: 'expired', value: (r) => n(r.outcomes.expired) },
  { label: 'in flight', value: (r) => n(r.outcomes.inFlight) },
  { label: 'amplification', value: (r) => `${r.amplification.toFixed(2)}x` },
  { label: 'drain', value: (r) => (r.drainMs === null ? 'never' : formatMs(r.drainMs)) },
  {
    label: 'storm peak',
    value: (r) => `${n(r.brokerOps.retriesPerSec)}/s at ${formatMs(r.brokerOps.retriesPeakAtMs)}`,
  },
  { label: 'peak memory', value: (r) => mb(r.queues.reduce((s, q) => s + q.peakMemoryBytes, 0)) },
];

export function RehearseOutcomes({ runs }: { runs: readonly RehearsedRun[] }) {
  return (
    <table data-testid="rehearse-outcomes" className="text-right tabular-nums">
      <thead>
        <tr className="text-slate-400">
          <th />
          {runs.map((r) => (
            <th key={r.label} className="max-w-[9rem] truncate px-1 font-medium" title={r.label}>
              {r.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ROWS.map((row) => (
          <tr key={row.label} data-testid={`rehearse-${row.label.replace(/ /g, '-')}`}>
            <td className="pr-1 text-left text-slate-400">{row.label}</td>
            {runs.map((r) => (
              <td key={r.label} className="px-1 text-slate-100" title={row.title?.(r.report)}>
                {row.value(r.report)}
              </td>
            ))}
          </tr>
        ))}
        {runs.some((r) => Object.keys(r.report.outcomes.parkedIn).length > 0) && (
          <tr>
            <td className="pr-1 text-left align-top text-slate-400">parked in</td>
            {runs.map((r) => (
              <td key={r.label} className="px-1 align-top text-slate-300">
                {Object.entries(r.report.outcomes.parkedIn).map(([q, c]) => (
                  <div key={q} className="truncate" title={q}>
                    {q}: {n(c)}
                  </div>
                ))}
              </td>
            ))}
          </tr>
        )}
      </tbody>
    </table>
  );
}

const PCTS = ['p50', 'p95', 'p99', 'max'] as const;

/** publish-to-ack delay of acked messages, bars on one scale across strategies */
export function DelayBars({ runs, colors }: { runs: readonly RehearsedRun[]; colors: readonly string[] }) {
  const top = Math.max(1, ...runs.map((r) => r.report.delayMs?.max ?? 0));
  return (
    <div data-testid="rehearse-delay" className="w-56 space-y-1">
      <div className="text-slate-400">delay, publish to ack</div>
      {PCTS.map((p) => (
        <div key={p} className="flex items-center gap-1">
          <span className="w-7 text-slate-400">{p}</span>
          <div className="flex-1 space-y-px">
            {runs.map((r, i) => {
              const v = r.report.delayMs?.[p];
              return (
                <div
                  key={r.label}
                  className="flex items-center gap-1"
                  title={`${r.label} ${p}: ${v === undefined ? 'nothing acked' : formatMs(v)}`}
                >
                  <div
                    className="h-2 rounded-sm"
                    style={{ width: `${Math.max(1, ((v ?? 0) / top) * 100)}%`, background: colors[i % colors.length] }}
                  />
                  <span className="shrink-0 text-[10px] text-slate-300">{v === undefined ? '—' : formatMs(v)}</span>
                </div>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
