/** Why each recommendation was chosen, in one sentence, measured against the first. */
import { formatMs } from '../text/formatDuration.js';
import type { TuneCost, TuneMetrics } from './types.js';

const pct = (a: number, b: number): string => `${Math.round(((a - b) / b) * 100)}%`;

export function whyChosen(
  rank: number,
  cost: TuneCost,
  m: TuneMetrics,
  best: { readonly cost: TuneCost; readonly metrics: TuneMetrics },
  onFront: boolean,
): string {
  const figures = `${Math.round(cost.brokerOps).toLocaleString('en-US')} broker operations, amplification ${m.amplification.toFixed(2)}, p99 delay ${formatMs(Math.round(m.delayMs.p99))}`;
  if (rank === 0) return `meets every goal with the fewest broker operations (${figures})`;
  const trades: string[] = [];
  if (m.delayMs.p99 < best.metrics.delayMs.p99)
    trades.push(
      `p99 delay ${formatMs(Math.round(m.delayMs.p99))} instead of ${formatMs(Math.round(best.metrics.delayMs.p99))}`,
    );
  if (m.peakMemoryBytes < best.metrics.peakMemoryBytes)
    trades.push(`peak memory ${pct(m.peakMemoryBytes, best.metrics.peakMemoryBytes)}`);
  if (cost.objects < best.cost.objects) trades.push(`${cost.objects} broker objects instead of ${best.cost.objects}`);
  const extra = `${pct(cost.brokerOps, best.cost.brokerOps)} broker operations`;
  return trades.length > 0
    ? `${onFront ? 'on the Pareto front: ' : ''}${trades.join(', ')} for ${cost.brokerOps >= best.cost.brokerOps ? '+' : ''}${extra}`
    : `also meets every goal (${figures})`;
}
