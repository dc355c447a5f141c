/**
 * A rehearsal's bill of materials beside its chart: the outcome counts, amplification, drain time
 * and the storm peak, one column per strategy, and the delay distribution as bars (p50 to max on
 * one scale, so strategies compare at a glance).
 */
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';
import { formatMs } from '@retry-studio/topology-core/budget';
import { formatBinaryBytes } from '@retry-studio/topology-core/text';
import type { RehearsedRun } from '../sim/rehearseWorker';

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => formatMs(Math.round(v));

interface Row {
  readonly label: string;
  readonly value: (r: RehearsalReport) => string;
  readonly title?: (r: RehearsalReport) => string;
}

const ROWS: readonly Row[] = [
  { label: 'messages', value: (r) => n(r.messages) },
  {
    label: 'copies',
    value: (r) => n(r.copies),
    title: () => 'what the outcomes count: a fan-out routes one message to several queues, one copy each',
  },
  { label: 'acked', value: (r) => n(r.outcomes.acked) },
  {
    label: 'parked',
    value: (r) => n(r.outcomes.parked),
    title: (r) =>
      Object.entries(r.outcomes.parkedIn)
        .map(
          ([q, c]) =>
            `${q}: ${n(c)}${r.outcomes.parkedExpiresAfterMs?.[q] !== undefined ? `, expires after ${ms(r.outcomes.parkedExpiresAfterMs[q]!)}` : ''}`,
        )
        .join('\n') || 'nothing parked',
  },
  { label: 'dropped', value: (r) => n(r.outcomes.dropped) },
  { label: 'expired', value: (r) => n(r.outcomes.expired) },
  {
    label: 'in flight',
    value: (r) => n(r.outcomes.inFlight),
    title: () => 'still retrying or held when the rehearsal ended',
  },
  { label: 'amplification', value: (r) => `${r.amplification.toFixed(2)}x`, title: () => 'deliveries per message' },
  {
    label: 'back to normal',
    value: (r) => (r.consumerOutages.length === 0 ? '—' : r.drainMs === null ? 'never' : `${ms(r.drainMs)} after`),
    title: () =>
      'after the last outage ends, until the retry queues and held messages are within the band of the same load without the outage',
  },
  {
    label: 'storm peak',
    value: (r) => `${n(r.brokerOps.retriesPerSec)}/s at ${ms(r.brokerOps.retriesPeakAtMs)}`,
    title: () => 'retries arriving back at the failing consumer, per second',
  },
  {
    label: 'node RAM',
    value: (r) => formatBinaryBytes(r.node.peakMemoryBytes),
    title: (r) =>
      `peak at ${ms(r.node.peakMemoryAtMs)} (idle ${formatBinaryBytes(r.node.idleMemoryBytes)}${r.node.uncollectedMemoryBytes > 0 ? `, not yet collected under the flow ${formatBinaryBytes(r.node.uncollectedMemoryBytes)}` : ''}); watermark ${formatBinaryBytes(r.node.memoryLimitBytes)}`,
  },
  {
    label: 'node disk',
    value: (r) => formatBinaryBytes(r.node.peakDiskBytes),
    title: (r) => `peak at ${ms(r.node.peakDiskAtMs)}`,
  },
  {
    label: 'alarms',
    value: (r) => (r.node.alarms.length === 0 ? 'none' : r.node.alarms.map((a) => a.kind).join(', ')),
  },
  {
    label: 'hot loops',
    value: (r) =>
      r.loops.length === 0 ? 'none' : r.loops.map((l) => `${l.queue} ${n(l.deliveriesPerSecond)}/s`).join(', '),
  },
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
        {ROWS.filter((row) => row.label !== 'copies' || runs.some((r) => r.report.copies !== r.report.messages)).map(
          (row) => (
            <tr key={row.label} data-testid={`rehearse-${row.label.replace(/ /g, '-')}`}>
              <td className="pr-1 text-left text-slate-400">{row.label}</td>
              {runs.map((r) => (
                <td key={r.label} className="px-1 text-slate-100" title={row.title?.(r.report)}>
                  {row.value(r.report)}
                </td>
              ))}
            </tr>
          ),
        )}
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
                  title={`${r.label} ${p}: ${v === undefined ? 'nothing acked' : ms(v)}`}
                >
                  <div
                    className="h-2 rounded-sm"
                    style={{ width: `${Math.max(1, ((v ?? 0) / top) * 100)}%`, background: colors[i % colors.length] }}
                  />
                  <span className="shrink-0 text-[11px] text-slate-300">{v === undefined ? '—' : ms(v)}</span>
                </div>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
