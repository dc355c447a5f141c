/**
 * What a rehearsal found, conclusion first: the verdict (the core's words), the depth chart
 * (retry queues on the left axis, a parking lot that dwarfs them on the right), the node's RAM and
 * disk against its memory watermark, then the per-queue table, the outcomes with the storm and
 * the node's peaks, and the delay distribution.
 */
import { useMemo } from 'react';
import { depthSeries, hasParkedAxis, nodeSeries, totalDepthSeries } from '../rehearse/chartSeries';
import type { RehearsedRun } from '../sim/rehearseWorker';
import { COLORS, DepthChart } from './DepthChart';
import { DelayBars, RehearseOutcomes } from './RehearseFigures';
import { RehearseQueues } from './RehearseQueues';
import { RehearseVerdict } from './RehearseVerdict';

export function RehearseResults({ runs, view }: { runs: readonly RehearsedRun[]; view: 'total' | 'queues' }) {
  const first = runs[0]!;
  const series = useMemo(
    () => (view === 'total' && runs.length > 1 ? totalDepthSeries(runs) : depthSeries(first.report)),
    [runs, view, first],
  );
  const shaded = useMemo(() => first.report.consumerOutages, [first]);
  const node = useMemo(() => nodeSeries(first.report), [first]);
  const total = view === 'total' && runs.length > 1;
  return (
    <div className="space-y-2 pt-1">
      <RehearseVerdict runs={runs} />
      <div className="flex flex-wrap gap-3">
        <div className="min-w-[20rem] flex-[3]">
          <DepthChart
            series={series}
            shaded={shaded}
            height={200}
            testId="rehearse-chart"
            leftLabel={
              total ? 'messages held, per design' : hasParkedAxis(series) ? 'messages (retry queues)' : 'messages'
            }
            rightLabel="messages (parked)"
          />
          <div className="text-[11px] text-slate-500">
            shaded: consumer consumerOutages ·{' '}
            {first.report.mode.kind === 'cohorts'
              ? `cohorts of ${first.report.mode.bucketMs} ms`
              : 'every message simulated'}{' '}
            · {runs.map((r) => `${r.label} in ${r.report.wallMs} ms`).join(', ')}
          </div>
        </div>
        <div className="min-w-[16rem] flex-[2]">
          <DepthChart
            series={node}
            shaded={shaded}
            height={200}
            unit="bytes"
            testId="rehearse-node-chart"
            leftLabel="node RAM and disk"
          />
        </div>
      </div>
      <div className="flex flex-wrap items-start gap-4">
        <RehearseQueues report={first.report} label={first.label} />
        <RehearseOutcomes runs={runs} />
        <DelayBars runs={runs} colors={COLORS} />
      </div>
    </div>
  );
}
