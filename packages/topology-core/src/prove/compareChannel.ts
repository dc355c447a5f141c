/**
 * A prediction against a real run: the attempts and the end must match exactly; each wait within
 * 10% of the predicted one, plus a fixed allowance for what no framework does in 0 ms (a thread
 * hand-over, a broker round trip, a poll); with jitter, anywhere from 0 to the stated wait.
 */
import { formatMs } from '../text/formatDuration.js';
import type { ChannelPrediction, ChannelRun } from './channelPrediction.js';

/** the share of a wait it may be off by */
export const DELAY_TOLERANCE = 0.1;
/** the allowance on top of the share (ms) */
export const DELAY_SLACK_MS = 300;

export interface ChannelComparison {
  readonly agree: boolean;
  /** each difference in words (empty when they agree) */
  readonly differences: readonly string[];
}

/** the range a real wait may fall in, for a predicted one */
export function delayRange(predictedMs: number, jitter: boolean): { readonly min: number; readonly max: number } {
  const max = predictedMs * (1 + DELAY_TOLERANCE) + DELAY_SLACK_MS;
  return { min: jitter ? 0 : Math.max(0, predictedMs * (1 - DELAY_TOLERANCE) - DELAY_SLACK_MS), max };
}

export function compareChannel(predicted: ChannelPrediction, observed: ChannelRun): ChannelComparison {
  // an honest "cannot say" is a failure to predict, whatever happened
  if (predicted.unknown !== undefined)
    return { agree: false, differences: [`unknown: import-app cannot predict it (${predicted.unknown})`] };
  const differences: string[] = [];
  // two loops: each count is where its watch stopped, not an end
  const bothCycle = predicted.end === 'cycling' && observed.end === 'cycling';
  if (!bothCycle && predicted.attempts !== observed.attempts)
    differences.push(`attempts: predicted ${predicted.attempts}, observed ${observed.attempts}`);
  if (predicted.end !== observed.end) differences.push(`end: predicted ${predicted.end}, observed ${observed.end}`);
  const n = Math.min(predicted.delaysMs.length, observed.delaysMs.length);
  for (let i = 0; i < n; i++) {
    const p = predicted.delaysMs[i]!;
    const o = observed.delaysMs[i]!;
    const r = delayRange(p, predicted.jitter);
    if (o < r.min || o > r.max)
      differences.push(
        `wait ${i + 1}: predicted ${predicted.jitter ? `up to ${formatMs(p)}` : formatMs(p)}, observed ${formatMs(o)} (allowed ${formatMs(Math.round(r.min))}..${formatMs(Math.round(r.max))})`,
      );
  }
  return { agree: differences.length === 0, differences };
}
