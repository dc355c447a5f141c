/**
 * The time axis's ticks: round steps (in milliseconds, seconds, minutes or hours) that fit the
 * run, so no two ticks read the same. Quarters of the run did: a 1 ms run read "0 ms 0 ms 1 ms 1 ms 1 ms".
 */
import { fmtT } from './SimBar';

export interface TimeTick {
  /** where on the axis, 0..1 */
  readonly at: number;
  readonly label: string;
}

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
/** round steps in the unit fmtT prints: milliseconds, seconds, minutes, hours, days (a one-day TTL read "6.94 h") */
const STEPS = [
  1,
  2,
  5,
  10,
  20,
  25,
  50,
  100,
  200,
  250,
  500,
  S,
  2 * S,
  2.5 * S,
  5 * S,
  10 * S,
  15 * S,
  30 * S,
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  H,
  2 * H,
  3 * H,
  6 * H,
  12 * H,
  24 * H,
];

/** at most `max` intervals between 0 and `endT` (ms) */
export function timeTicks(endT: number, max = 4): TimeTick[] {
  if (!(endT > 0)) return [{ at: 0, label: fmtT(0) }];
  const raw = endT / max;
  // beyond a day: whole days
  const step = STEPS.find((s) => s >= raw) ?? Math.ceil(raw / (24 * H)) * 24 * H;
  const ticks: TimeTick[] = [];
  for (let t = 0; t <= endT + 1e-9; t += step) ticks.push({ at: t / endT, label: fmtT(t) });
  // a guard: two round steps that fmtT still prints alike show once
  return ticks.filter((tick, i) => i === 0 || tick.label !== ticks[i - 1]!.label);
}
