/**
 * Whether one processing attempt fails under a rehearsal: the consumer is in an outage at that
 * instant, the message is poison for it, or the attempt draws an error. One function for the
 * rehearsal (through the simulator's `failureSchedule`) and the real broker's workers
 * (--verify-on), so both fail the same attempts.
 */
import { attemptDraw } from '../sim/rng.js';
import type { ConsumerLoad, OutageWindow } from './load.js';

/** attempt 0 is never a processing attempt (those are 1-based): the message's own poison draw */
const POISON_ATTEMPT = 0;

/** the uniform [0, 1) draw that decides whether message `ordinal` is poison: poison where it is below the share */
export function poisonDraw(seed: number, ordinal: number): number {
  return attemptDraw(seed, ordinal, POISON_ATTEMPT);
}

export function inOutage(consumerOutages: readonly OutageWindow[], t: number): boolean {
  for (const o of consumerOutages) if (t >= o.startMs && t < o.endMs) return true;
  return false;
}

/** One message as the failure schedule sees it. */
export interface ScheduledMessage {
  /** the ordinal whose error draws it uses */
  readonly ordinal: number;
  /** its poison draw (poisonDraw for a message of its own; a cohort's stratum for a cohort) */
  readonly poisonU: number;
}

/** true when attempt `attempt` (1-based, across every worker) of the message at consumer `c` at time `t` fails */
export function attemptFails(c: ConsumerLoad, seed: number, m: ScheduledMessage, attempt: number, t: number): boolean {
  if (m.poisonU < c.poison) return true;
  if (c.consumerOutages.length > 0 && inOutage(c.consumerOutages, t)) return true;
  return c.errorRate > 0 && attemptDraw(seed, m.ordinal, attempt) < c.errorRate;
}
