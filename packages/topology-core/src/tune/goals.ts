/** Does one rehearsal meet the goals? Each miss names its goal and the figure that missed it. */
import { formatMs } from '../text/formatDuration.js';
import { formatBinaryBytes } from '../text/formatBinaryBytes.js';
import type { GoalMiss, TuneGoals, TuneMetrics } from './types.js';
import { formatCount } from '../text/formatCount.js';

const pct = (x: number): string => `${+(x * 100).toFixed(2)}%`;
const mb = formatBinaryBytes;

export function goalMisses(m: TuneMetrics, goals: TuneGoals): GoalMiss[] {
  const out: GoalMiss[] = [];
  const miss = (goal: GoalMiss['goal'], message: string): void => {
    out.push({ goal, outageLengthMs: m.outageLengthMs, message: `${formatMs(m.outageLengthMs)} outage: ${message}` });
  };
  if (m.capacity !== undefined) miss('capacity', m.capacity);
  if (m.lostGood > 0) miss('no-loss', `${formatCount(m.lostGood)} messages that could succeed end parked or dropped`);
  if (goals.deadlineMs !== undefined && (m.withinDeadline ?? 0) < goals.deadlineShare)
    miss(
      'deadline',
      `${pct(m.withinDeadline ?? 0)} of the messages that can succeed are acked within ${formatMs(goals.deadlineMs)}, the goal is ${pct(goals.deadlineShare)}`,
    );
  if (goals.maxAmplification !== undefined && m.amplification > goals.maxAmplification)
    miss('max-amplification', `amplification ${m.amplification.toFixed(2)} > ${goals.maxAmplification}`);
  if (goals.maxMemoryBytes !== undefined && m.peakMemoryBytes > goals.maxMemoryBytes)
    miss('max-memory', `peak memory ${mb(m.peakMemoryBytes)} > ${mb(goals.maxMemoryBytes)}`);
  if (goals.maxDepth !== undefined && m.peakDepth > goals.maxDepth)
    miss('max-depth', `peak depth ${m.peakDepth} > ${goals.maxDepth}`);
  return out;
}
