/** mulberry32: a tiny seeded PRNG; the same seed gives the same run. */
export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return {
    next(): number {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/**
 * The uniform [0, 1) draw for one processing attempt of one message under a seed. A pure
 * function of (seed, message, attempt), so the simulator and the live trace's workers, which
 * process in different orders, reach the same `percent` verdicts.
 */
export function attemptDraw(seed: number, messageIndex: number, attempt: number): number {
  const mixed =
    Math.imul(seed >>> 0, 0x9e3779b1) ^
    Math.imul(messageIndex >>> 0, 0x85ebca77) ^
    Math.imul(attempt >>> 0, 0xc2b2ae3d);
  return mulberry32(mixed).next();
}
