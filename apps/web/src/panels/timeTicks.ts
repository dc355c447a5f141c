/**
 * The time axis's ticks: round steps (1, 2, 2.5 or 5 × a power of ten, whole milliseconds) that fit the
 * run, so no two ticks read the same. Quarters of the run did: a 1 ms run read "0 ms 0 ms 1 ms 1 ms 1 ms".
 */
import { fmtT } from './SimBar';

export interface TimeTick {
  /** where on the axis, 0..1 */
  readonly at: number;
  readonly label: string;
}

/** at most `max` intervals between 0 and `endT` (ms) */
export function timeTicks(endT: number, max = 4): TimeTick[] {
  if (!(endT > 0)) return [{ at: 0, label: fmtT(0) }];
  const raw = endT / max;
  const pow = 10 ** Math.floor(Math.log10(raw));
  // 2.5 only where it stays whole milliseconds (2.5 s, 250 ms; not 2.5 ms)
  const step = Math.max(1, [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw && Number.isInteger(s))!);
  const ticks: TimeTick[] = [];
  for (let t = 0; t <= endT + 1e-9; t += step) ticks.push({ at: t / endT, label: fmtT(t) });
  // a guard: two round steps that fmtT still prints alike show once
  return ticks.filter((tick, i) => i === 0 || tick.label !== ticks[i - 1]!.label);
}
