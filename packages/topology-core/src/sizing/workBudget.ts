/**
 * A budget for a piece of work (a server request's worker, a CLI command) and the verdict on a
 * size held against it: within, or refused naming what makes it big, how big it would be and how
 * much of it fits.
 */
import { formatBytes } from '../text/formatBytes.js';
import { UNIT_COSTS } from './unitCosts.js';
import type { SizeDriver, SizePart, WorkSize } from './workSize.js';
import { formatCount } from '../text/formatCount.js';

export interface WorkBudget {
  /** who grants it, for the message: "a request to this server", "this command" */
  readonly holder: string;
  /** estimated peak memory */
  readonly bytes: number;
  /** estimated steps */
  readonly steps: number;
  readonly answerBytes: number;
}

export type BudgetDimension = 'memory' | 'time' | 'answer';

export type BudgetVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly dimension: BudgetDimension;
      readonly driver: SizeDriver;
      /** the sentence: what, how big (estimated), the budget, how much fits, how to shrink it */
      readonly message: string;
    };

const DIMENSIONS: readonly {
  readonly dimension: BudgetDimension;
  readonly of: (x: WorkSize | SizePart) => number;
  readonly limit: (b: WorkBudget) => number;
  readonly say: (n: number) => string;
}[] = [
  {
    dimension: 'memory',
    of: (x) => x.bytes,
    limit: (b) => b.bytes,
    say: (n) => `${formatBytes(n)} of memory`,
  },
  {
    dimension: 'time',
    of: (x) => x.steps,
    limit: (b) => b.steps,
    say: (n) => `${seconds(n)} of computing`,
  },
  {
    dimension: 'answer',
    of: (x) => x.answerBytes,
    limit: (b) => b.answerBytes,
    say: (n) => `an answer of ${formatBytes(n)}`,
  },
];

const seconds = (steps: number): string => {
  const s = (steps * UNIT_COSTS.nsPerStep) / 1e9;
  return s < 10 ? `${+s.toFixed(1)} s` : `${formatCount(Math.round(s))} s`;
};

/** The first dimension over budget, blamed on the part that contributes most to it. */
export function checkBudget(size: WorkSize, budget: WorkBudget): BudgetVerdict {
  for (const d of DIMENSIONS) {
    const total = d.of(size);
    const limit = d.limit(budget);
    if (total <= limit) continue;
    const part = size.parts.reduce((a, b) => (d.of(b) > d.of(a) ? b : a));
    // the part's units that fit once the rest is paid for (the rest is small beside it, or the part is not to blame)
    const perUnit = d.of(part) / Math.max(1, part.count);
    const room = limit - (total - d.of(part));
    const fit = perUnit > 0 && room > 0 ? Math.floor(room / perUnit) : 0;
    const fits = fit > 0 ? `; about ${formatCount(fit)} ${part.unit} fit` : '';
    return {
      ok: false,
      dimension: d.dimension,
      driver: part.driver,
      message: `${part.driver.what}: about ${d.say(d.of(part))} (estimated), over the ${d.say(limit)} ${budget.holder} may take${fits}; ${part.driver.fix}`,
    };
  }
  return { ok: true };
}
