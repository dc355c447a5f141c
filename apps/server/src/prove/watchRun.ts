/**
 * Watching one message through a real framework: every attempt the listener records, until the
 * message has come to rest (no attempt for longer than the next predicted wait, and not before the
 * predicted end), has gone round more often than the prediction allows (still going), or the time
 * limit is reached.
 */
import type { ChannelPrediction } from '@retry-studio/topology-core/prove';
import type { RunnerEvent } from './runnerProcess.js';

export interface ObservedAttempt {
  /** ms after the message was published */
  readonly t: number;
  readonly queue: string;
  readonly deliveryTag: unknown;
  readonly redelivered: unknown;
  readonly headers: unknown;
  readonly xDeath: unknown;
  readonly failed: boolean;
}

export interface WatchResult {
  readonly attempts: readonly ObservedAttempt[];
  /** attempts were still coming when the watch stopped */
  readonly stillGoing: boolean;
  /** epoch ms of the last attempt (or the publish) */
  readonly lastAt: number;
}

/** no attempt for this long after the predicted next one: it has come to rest */
export const QUIET_MS = 3000;
/** a cycle is watched for this many attempts (a loop proves itself in a few turns) */
export const CYCLE_ATTEMPTS = 12;

/** a prediction of a loop (an "unknown" end is watched as the journey import-app guessed) */
const loops = (p: ChannelPrediction): boolean =>
  p.end === 'cycling' || (p.end === 'unknown' && p.outcome.kind === 'moving');

/** How many attempts to watch for: the prediction's, a few more (the framework may do more), or a cycle's few turns. */
export function attemptCap(p: ChannelPrediction | undefined): number {
  if (!p) return 30;
  if (loops(p)) return Math.min(p.attempts, CYCLE_ATTEMPTS);
  return p.attempts + 5;
}

/** ms the prediction needs watching for: to its end, or to its cap of attempts in a cycle */
export function predictedWatchMs(p: ChannelPrediction | undefined): number {
  if (!p) return 0;
  if (!loops(p)) return p.endTime;
  return p.delaysMs.slice(0, attemptCap(p) - 1).reduce((a, b) => a + b, 0);
}

export function watchRun(
  subscribe: (fn: (e: RunnerEvent) => void) => void,
  publishedAt: number,
  p: ChannelPrediction | undefined,
  limitMs: number,
): Promise<WatchResult> {
  const attempts: ObservedAttempt[] = [];
  const cap = attemptCap(p);
  const notBefore = publishedAt + predictedWatchMs(p) + 1500;
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const hardStop = setTimeout(() => finish(true), limitMs);
    let lastAt = publishedAt;
    const finish = (stillGoing: boolean) => {
      clearTimeout(timer);
      clearTimeout(hardStop);
      subscribe(() => undefined);
      resolve({ attempts, stillGoing: stillGoing && attempts.length > 0, lastAt });
    };
    const arm = () => {
      clearTimeout(timer);
      const next = p?.delaysMs[attempts.length - 1] ?? 0;
      const quiet = Math.max(QUIET_MS, next * 1.1 + 1500);
      const wait = Math.max(lastAt + quiet, attempts.length === 0 ? publishedAt + 30_000 : 0, notBefore) - Date.now();
      timer = setTimeout(() => finish(false), Math.max(0, wait));
    };
    subscribe((e) => {
      if (e.event === 'attempt') {
        lastAt = e.t;
        attempts.push({
          t: e.t - publishedAt,
          queue: e.queue,
          deliveryTag: e.deliveryTag,
          redelivered: e.redelivered,
          headers: e.headers,
          xDeath: e.xDeath,
          failed: e.failed,
        });
        if (attempts.length >= cap) return finish(true);
        arm();
      } else if (e.event === 'error' || e.event === 'exited') {
        clearTimeout(timer);
        clearTimeout(hardStop);
        reject(new Error(e.event === 'error' ? e.message : `the runner exited (code ${e.code}, signal ${e.signal})`));
      }
    });
    arm();
  });
}
