/**
 * The messages a rehearsal publishes into the simulator. Message by message for small loads;
 * otherwise cohorts: the arrivals of one time bucket that meet the same failure schedule stand
 * as one message with a weight. Buckets also break at every fate breakpoint (probe.ts), so the
 * messages of a cohort have the same fate (outcome, attempts, delay) as its first message: with
 * outages alone the outcomes equal the per-message run's. Poison is split by share (strata of
 * the poison draw); errors are drawn with the cohort's first message's draws (a sample).
 */
import { arrivalAt, firstAtOrAfter, type ArrivalSegment } from './arrivals.js';
import { poisonDraw } from './failureSchedule.js';

export interface PublishPlan {
  readonly kind: 'per-message' | 'cohorts';
  /** representatives (messages or cohorts), in publish order */
  readonly count: number;
  readonly publishAt: Float64Array;
  readonly weight: Float64Array;
  /** the ordinal whose error draws it uses (its first message's) */
  readonly ordinal: Float64Array;
  readonly poisonU: Float64Array;
  /** how long its messages take to arrive (0 for one message): its events are spread over that */
  readonly spanMs: Float64Array;
  /** 0 message by message */
  readonly bucketMs: number;
}

class PlanBuilder {
  count = 0;
  publishAt: Float64Array<ArrayBuffer> = new Float64Array(1024);
  weight: Float64Array<ArrayBuffer> = new Float64Array(1024);
  ordinal: Float64Array<ArrayBuffer> = new Float64Array(1024);
  poisonU: Float64Array<ArrayBuffer> = new Float64Array(1024);
  spanMs: Float64Array<ArrayBuffer> = new Float64Array(1024);

  push(t: number, w: number, ordinal: number, u: number, span = 0): void {
    if (this.count === this.publishAt.length) {
      const grow = (a: Float64Array): Float64Array<ArrayBuffer> => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.publishAt = grow(this.publishAt);
      this.weight = grow(this.weight);
      this.ordinal = grow(this.ordinal);
      this.poisonU = grow(this.poisonU);
      this.spanMs = grow(this.spanMs);
    }
    const i = this.count++;
    this.publishAt[i] = t;
    this.weight[i] = w;
    this.ordinal[i] = ordinal;
    this.poisonU[i] = u;
    this.spanMs[i] = span;
  }

  done(kind: PublishPlan['kind'], bucketMs: number): PublishPlan {
    const n = this.count;
    return {
      kind,
      count: n,
      publishAt: this.publishAt.subarray(0, n),
      weight: this.weight.subarray(0, n),
      ordinal: this.ordinal.subarray(0, n),
      poisonU: this.poisonU.subarray(0, n),
      spanMs: this.spanMs.subarray(0, n),
      bucketMs,
    };
  }
}

export function perMessagePlan(segments: readonly ArrivalSegment[], seed: number): PublishPlan {
  const b = new PlanBuilder();
  for (const s of segments)
    for (let k = 0; k < s.count; k++) {
      const ordinal = s.firstOrdinal + k;
      b.push(arrivalAt(s, k), 1, ordinal, poisonDraw(seed, ordinal));
    }
  return b.done('per-message', 0);
}

/** the poison draw's strata: an interval between two poison shares in use, its draw the interval's low end */
export function poisonStrata(poisonShares: readonly number[]): { lo: number; size: number }[] {
  const cuts = [0, ...new Set(poisonShares.filter((p) => p > 0 && p < 1))].sort((a, b) => a - b);
  return cuts.map((lo, i) => ({ lo, size: (cuts[i + 1] ?? 1) - lo }));
}

/**
 * `breakpoints` sorted; `poisonShares` every poison share in use (the strata: a cohort per
 * interval between two shares, its draw the interval's low end).
 */
export function cohortPlan(
  segments: readonly ArrivalSegment[],
  bucketMs: number,
  breakpoints: readonly number[],
  poisonShares: readonly number[],
): PublishPlan {
  const strata = poisonStrata(poisonShares);
  const b = new PlanBuilder();
  for (const s of segments) {
    let bp = 0;
    while (bp < breakpoints.length && (breakpoints[bp] as number) <= s.startMs) bp++;
    let a = s.startMs;
    while (a < s.endMs) {
      let next = a + bucketMs;
      while (bp < breakpoints.length && (breakpoints[bp] as number) <= a) bp++;
      if (bp < breakpoints.length && (breakpoints[bp] as number) < next) next = breakpoints[bp] as number;
      const k0 = firstAtOrAfter(s, a);
      const k1 = firstAtOrAfter(s, next);
      const n = k1 - k0;
      if (n > 0) {
        const t = arrivalAt(s, k0);
        const ordinal = s.firstOrdinal + k0;
        const span = arrivalAt(s, k1 - 1) - t + s.gapMs;
        for (const st of strata) if (st.size > 0) b.push(t, n * st.size, ordinal, st.lo, span);
      }
      a = next;
    }
  }
  return b.done('cohorts', bucketMs);
}
