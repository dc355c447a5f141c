/**
 * .NET retry policies as waits between attempts, read from C# text: MassTransit's
 * `r.Immediate(n)`, `r.Interval(n, t)`, `r.Intervals(t...)`, `r.Incremental(n, initial, step)`,
 * `r.Exponential(n, min, max, delta)` (GreenPipes/MassTransit RetryConfigurationExtensions).
 * Exponential waits are min(max, min + (2^i - 1) * delta) for the i-th retry (0-based); MassTransit
 * draws delta between 0.8x and 1.2x, this reads the middle (the waits are not exact).
 */
import { findMethodCalls, intLiteral, splitArgs, type Call } from './codeText.js';
import { timeSpanMs } from './durations.js';

export interface RetryPolicy {
  /** the form it was written in */
  readonly form: 'Immediate' | 'Interval' | 'Intervals' | 'Incremental' | 'Exponential' | 'None';
  /** the wait before each retry, ms (its length is the retry count) */
  readonly delaysMs: readonly number[];
  /** MassTransit's exponential policy draws its waits at random */
  readonly jitter: boolean;
  readonly at: number;
}

/** A wait written as a TimeSpan or as an int of milliseconds (MassTransit's int overloads). */
const waitMs = (e: string | undefined): number | undefined =>
  e === undefined ? undefined : (intLiteral(e) ?? timeSpanMs(e));

const FORMS = ['Immediate', 'Intervals', 'Interval', 'Incremental', 'Exponential', 'None'] as const;

/** The first retry policy called in `text` (a lambda body); undefined when none is recognised. */
export function readRetryPolicy(
  text: string,
  offset: number,
): { policy?: RetryPolicy; problem?: { at: number; text: string } } {
  const calls: Call[] = FORMS.flatMap((f) => findMethodCalls(text, f)).sort((a, b) => a.at - b.at);
  const c = calls[0];
  if (!c) return {};
  const a = splitArgs(c.args);
  const at = offset + c.at;
  const bad = (why: string) => ({
    problem: { at, text: `${c.name}(${c.args.replace(/\s+/g, ' ').slice(0, 80)}): ${why}` },
  });
  switch (c.name as (typeof FORMS)[number]) {
    case 'None':
      return { policy: { form: 'None', delaysMs: [], jitter: false, at } };
    case 'Immediate': {
      const n = intLiteral(a[0]);
      return n === undefined
        ? bad('the retry limit is not a number literal')
        : { policy: { form: 'Immediate', delaysMs: Array(n).fill(0), jitter: false, at } };
    }
    case 'Interval': {
      const n = intLiteral(a[0]);
      const w = waitMs(a[1]);
      return n === undefined || w === undefined
        ? bad('expected Interval(retryLimit, interval) with literals')
        : { policy: { form: 'Interval', delaysMs: Array(n).fill(w), jitter: false, at } };
    }
    case 'Intervals': {
      const ws = a.map(waitMs);
      return ws.length === 0 || ws.some((w) => w === undefined)
        ? bad('each interval must be a literal (ms or TimeSpan)')
        : { policy: { form: 'Intervals', delaysMs: ws as number[], jitter: false, at } };
    }
    case 'Incremental': {
      const n = intLiteral(a[0]);
      const first = waitMs(a[1]);
      const step = waitMs(a[2]);
      if (n === undefined || first === undefined || step === undefined)
        return bad('expected Incremental(retryLimit, initialInterval, intervalIncrement) with literals');
      return {
        policy: {
          form: 'Incremental',
          delaysMs: Array.from({ length: n }, (_, i) => first + i * step),
          jitter: false,
          at,
        },
      };
    }
    case 'Exponential': {
      const n = intLiteral(a[0]);
      const min = waitMs(a[1]);
      const max = waitMs(a[2]);
      const delta = waitMs(a[3]);
      if (n === undefined || min === undefined || max === undefined || delta === undefined)
        return bad('expected Exponential(retryLimit, minInterval, maxInterval, intervalDelta) with literals');
      return {
        policy: {
          form: 'Exponential',
          delaysMs: Array.from({ length: n }, (_, i) => Math.min(max, min + (2 ** i - 1) * delta)),
          jitter: true,
          at,
        },
      };
    }
  }
}
