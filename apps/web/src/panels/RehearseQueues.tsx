/**
 * The per-queue table of a rehearsal, as the CLI prints it: each queue's storage, its peak depth
 * as the broker counts it, what it holds for a delayed retry, when, and its RAM and disk at the
 * peak (MiB, as the CLI); then the exchanges that hold messages (the delayed-message exchange).
 */
import { formatMs } from '@retry-studio/topology-core/budget';
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';
import { formatBinaryBytes } from '@retry-studio/topology-core/text';

const n = (v: number) => Math.round(v).toLocaleString('en-US');

export function RehearseQueues({ report, label }: { report: RehearsalReport; label: string }) {
  const cell = 'px-1.5 text-right tabular-nums';
  return (
    <div className="space-y-1">
      <table data-testid="rehearse-queues" className="text-slate-200">
        <caption className="text-left text-slate-400">
          queues of {label} at their peak (RabbitMQ {report.calibration.brokerVersion}&apos;s measured figures)
        </caption>
        <thead className="text-slate-400">
          <tr>
            <th className="pr-1.5 text-left font-medium">queue</th>
            <th className="px-1.5 text-left font-medium">storage</th>
            <th className={`${cell} font-medium`}>peak depth</th>
            <th
              className={`${cell} font-medium`}
              title="held for a delayed retry: in the queue, not counted by the broker"
            >
              held
            </th>
            <th className={`${cell} font-medium`}>at</th>
            <th className={`${cell} font-medium`}>RAM</th>
            <th className={`${cell} font-medium`}>disk</th>
          </tr>
        </thead>
        <tbody>
          {report.queues.map((q) => (
            <tr
              key={q.name}
              data-testid="rehearse-queue-row"
              title={`per message: ${formatBinaryBytes(q.perMessage.ramBytes)} RAM, ${formatBinaryBytes(q.perMessage.diskBytes)} disk (${q.perMessage.basis})`}
            >
              <td className="max-w-[14rem] truncate pr-1.5">{q.name}</td>
              <td className="px-1.5 text-slate-400">{q.storage}</td>
              <td className={cell}>{n(q.peakDepth)}</td>
              <td className={cell}>{n(q.peakHeld)}</td>
              <td className={cell}>{formatMs(Math.round(q.peakAtMs))}</td>
              <td className={cell}>{formatBinaryBytes(q.peakMemoryBytes)}</td>
              <td className={cell}>{formatBinaryBytes(q.peakDiskBytes)}</td>
            </tr>
          ))}
          {report.held.map((h) => (
            <tr key={h.exchange} data-testid="rehearse-held-row">
              <td className="max-w-[14rem] truncate pr-1.5">{h.exchange}</td>
              <td className="px-1.5 text-slate-400">delayed exchange</td>
              <td className={cell}>—</td>
              <td className={cell}>{n(h.peakHeld)}</td>
              <td className={cell}>{formatMs(Math.round(h.peakAtMs))}</td>
              <td className={cell}>{formatBinaryBytes(h.peakMemoryBytes)}</td>
              <td className={cell}>{formatBinaryBytes(h.peakDiskBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
