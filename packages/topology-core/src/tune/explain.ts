/** Why each recommendation was chosen, in one sentence, measured against the first. */
import { formatBinaryBytes } from '../text/formatBinaryBytes.js';
import { formatMs } from '../text/formatDuration.js';
import type { TuneCost, TuneMetrics } from './types.js';
import { formatCount } from '../text/formatCount.js';

/** a change in percent, or undefined when it rounds to nothing */
const change = (a: number, b: number): number | undefined => {
  const x = b > 0 ? Math.round(((a - b) / b) * 100) : 0;
  return x === 0 ? undefined : x;
};

export function whyChosen(
  rank: number,
  cost: TuneCost,
  m: TuneMetrics,
  best: { readonly cost: TuneCost; readonly metrics: TuneMetrics },
  onFront: boolean,
  deadline: { readonly deadlineMs?: number; readonly margin: boolean } = { margin: true },
): string {
  const figures = `${formatCount(Math.round(cost.brokerOps))} broker operations, amplification ${m.amplification.toFixed(2)}, p99 delay ${formatMs(Math.round(m.delayMs.p99))}${deadline.deadlineMs !== undefined ? ` (${Math.round((100 * m.delayMs.p99) / deadline.deadlineMs)}% of the ${formatMs(deadline.deadlineMs)} deadline${deadline.margin ? '' : ': no 10% margin'})` : ''}`;
  if (rank === 0)
    return `meets every goal with the fewest broker operations${deadline.deadlineMs !== undefined && deadline.margin ? ' among those with a margin to the deadline' : ''} (${figures})`;
  const trades: string[] = [];
  if (m.delayMs.p99 < best.metrics.delayMs.p99)
    trades.push(
      `p99 delay ${formatMs(Math.round(m.delayMs.p99))} instead of ${formatMs(Math.round(best.metrics.delayMs.p99))}`,
    );
  if (
    change(m.peakMemoryBytes, best.metrics.peakMemoryBytes) !== undefined &&
    m.peakMemoryBytes < best.metrics.peakMemoryBytes
  )
    trades.push(
      `peak RAM ${formatBinaryBytes(m.peakMemoryBytes)} instead of ${formatBinaryBytes(best.metrics.peakMemoryBytes)}`,
    );
  if (cost.objects < best.cost.objects) trades.push(`${cost.objects} broker objects instead of ${best.cost.objects}`);
  const ops = change(cost.brokerOps, best.cost.brokerOps);
  const extra =
    ops === undefined ? 'about the same broker operations' : `${ops > 0 ? '+' : ''}${ops}% broker operations`;
  return trades.length > 0
    ? `${onFront ? 'on the Pareto front: ' : ''}${trades.join(', ')}, for ${extra}`
    : `also meets every goal (${figures})`;
}
