/**
 * When messages arrive: a constant rate or phases, as segments of evenly spaced arrivals. The
 * per-message rehearsal, the cohorts and the real broker's publishers all place message k of a
 * segment at `startMs + k * gapMs` rounded to the millisecond (whole milliseconds add up exactly in
 * the simulator's clock), so they publish the same messages at the same instants.
 */
import type { RehearsalLoad } from './load.js';

export interface ArrivalSegment {
  readonly startMs: number;
  readonly endMs: number;
  /** ms between two arrivals (1000 / rate) */
  readonly gapMs: number;
  readonly count: number;
  /** the 1-based ordinal of the segment's first message in the whole load */
  readonly firstOrdinal: number;
}

const instant = (start: number, gap: number, k: number): number => Math.round(start + k * gap);

/** the first k >= 0 whose arrival instant is at or after `at` */
function firstAtOrAfterRaw(start: number, gap: number, at: number): number {
  if (at <= start) return 0;
  let k = Math.max(0, Math.ceil((at - 0.5 - start) / gap) - 1);
  while (k > 0 && instant(start, gap, k - 1) >= at) k--;
  while (instant(start, gap, k) < at) k++;
  return k;
}

/** how many of the instants fall before `end` */
function countBefore(start: number, end: number, gap: number): number {
  return end <= start ? 0 : firstAtOrAfterRaw(start, gap, end);
}

/** the first k of the segment whose arrival is at or after `at` (at most `count`) */
export function firstAtOrAfter(s: ArrivalSegment, at: number): number {
  return Math.min(s.count, firstAtOrAfterRaw(s.startMs, s.gapMs, at));
}

/** the load's arrivals (assumes a validated load) */
export function arrivalSegments(load: RehearsalLoad): ArrivalSegment[] {
  const phases =
    load.phases && load.phases.length > 0
      ? [...load.phases].sort((a, b) => a.at - b.at)
      : [{ at: 0, rate: load.rate ?? 0 }];
  const out: ArrivalSegment[] = [];
  let ordinal = 1;
  for (let i = 0; i < phases.length; i++) {
    const p = phases[i] as { at: number; rate: number };
    const end = Math.min(load.durationMs, (phases[i + 1] as { at: number } | undefined)?.at ?? load.durationMs);
    if (p.rate <= 0 || end <= p.at) continue;
    const gapMs = 1000 / p.rate;
    const count = countBefore(p.at, end, gapMs);
    if (count === 0) continue;
    out.push({ startMs: p.at, endMs: end, gapMs, count, firstOrdinal: ordinal });
    ordinal += count;
  }
  return out;
}

export function totalMessages(segments: readonly ArrivalSegment[]): number {
  let n = 0;
  for (const s of segments) n += s.count;
  return n;
}

/** when message k (0-based) of a segment arrives */
export function arrivalAt(s: ArrivalSegment, k: number): number {
  return instant(s.startMs, s.gapMs, k);
}
