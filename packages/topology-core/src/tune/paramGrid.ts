/**
 * The coarse grid of one template's parameters, read from its ParamSpecs (so a new template is
 * searched without a table here): counts from a short ladder, delays from a ladder of round
 * durations, delay lists as geometric tiers, booleans both ways, other enums and names at their
 * defaults (the parking place, where settings live and the prefix do not change the figures).
 */
import type { ParamSpec, ParamValue, ParamValues, RetryTemplate } from '../templates/types.js';

export const COUNT_LADDER = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50] as const;
export const DELAY_LADDER_MS = [
  100, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000,
] as const;
const MULTIPLIERS = [1, 2, 3] as const;
const TIER_FACTORS = [1, 2, 3, 5] as const;

const within = (s: ParamSpec, v: number): boolean =>
  (s.min === undefined || v >= s.min) && (s.max === undefined || v <= s.max);

/** geometric tier lists: n tiers from `first`, each `factor` times the last, capped at an hour */
function tierLists(s: ParamSpec): readonly (readonly number[])[] {
  const out: number[][] = [];
  const lengths = COUNT_LADDER.filter((n) => n >= (s.minItems ?? 1) && n <= (s.maxItems ?? 10));
  for (const n of lengths)
    for (const first of DELAY_LADDER_MS)
      for (const f of TIER_FACTORS) {
        if (n === 1 && f !== 1) continue;
        const list = Array.from({ length: n }, (_, i) => Math.min(3_600_000, first * f ** i));
        if (list.every((v) => within(s, v))) out.push(list);
      }
  return out;
}

/** The values tried for one parameter. */
export function valuesOf(s: ParamSpec): readonly ParamValue[] {
  switch (s.type) {
    case 'integer':
      if (s.unit === 'ms') return DELAY_LADDER_MS.filter((v) => within(s, v));
      if (s.unit === 'count') return COUNT_LADDER.filter((v) => within(s, v));
      if (s.name === 'multiplier') return MULTIPLIERS.filter((v) => within(s, v));
      return [s.default];
    case 'integer-list':
      return s.unit === 'ms' ? tierLists(s) : [s.default];
    case 'boolean':
      return [true, false];
    default:
      return [s.default];
  }
}

/** every other value, ends kept: the ladder's span stays, its steps double */
const thin = <T>(vs: readonly T[]): readonly T[] => vs.filter((_, i) => i % 2 === 0 || i === vs.length - 1);

/**
 * Every combination, lazily. A template whose grid exceeds `budget` combinations has its longest
 * axes thinned first (coarse before fine: the tuner refines around what it finds).
 */
export function* paramGrid(t: RetryTemplate, budget = 4000): Generator<ParamValues> {
  let axes = t.params.map((s) => [s.name, valuesOf(s)] as const);
  const size = (): number => axes.reduce((n, [, vs]) => n * vs.length, 1);
  while (size() > budget) {
    const longest = axes.reduce((a, b) => (b[1].length > a[1].length ? b : a));
    if (longest[1].length <= 3) break;
    axes = axes.map((ax) => (ax === longest ? ([ax[0], thin(ax[1])] as const) : ax));
  }
  const pick: Record<string, ParamValue> = {};
  function* walk(i: number): Generator<ParamValues> {
    if (i === axes.length) {
      yield { ...pick };
      return;
    }
    const [name, values] = axes[i]!;
    for (const v of values) {
      pick[name] = v;
      yield* walk(i + 1);
    }
  }
  yield* walk(0);
}
