/**
 * .NET retry policies as waits between attempts, read from C# text: MassTransit's
 * `r.Immediate(n)`, `r.Interval(n, t)`, `r.Intervals(t...)`, `r.Incremental(n, initial, step)`,
 * `r.Exponential(n, min, max, delta)` (GreenPipes/MassTransit RetryConfigurationExtensions).
 * Exponential waits are min(max, min + (2^i - 1) * delta) for the i-th retry (0-based); MassTransit
 * draws delta between 0.8x and 1.2x, this reads the middle (the waits are not exact). Counts and
 * waits go through constants (`const int Retries = 3`, `TimeSpan.FromSeconds(Delay)`).
 */
import { splitArgs, type Call, type CodeText } from './codeText.js';
import { timeSpanMs } from './durations.js';
import type { JavaValues } from './javaValues.js';

export interface RetryPolicy {
  /** the form it was written in */
  readonly form: 'Immediate' | 'Interval' | 'Intervals' | 'Incremental' | 'Exponential' | 'None';
  /** the wait before each retry, ms (its length is the retry count) */
  readonly delaysMs: readonly number[];
  /** MassTransit's exponential policy draws its waits at random */
  readonly jitter: boolean;
  readonly at: number;
}

const FORMS = ['Immediate', 'Intervals', 'Interval', 'Incremental', 'Exponential', 'None'] as const;

/** The first retry policy called in [from, to) of the code (a lambda body); undefined when none is recognised. */
export function readRetryPolicy(
  code: CodeText,
  from: number,
  to: number,
  values: JavaValues,
): { policy?: RetryPolicy; problem?: { at: number; text: string } } {
  const calls: Call[] = FORMS.flatMap((f) => code.methodCalls(f, from, to)).sort((a, b) => a.at - b.at);
  const c = calls[0];
  if (!c) return {};
  const a = splitArgs(c.args);
  const at = c.at;
  const int = (e: string | undefined): number | undefined => (e === undefined ? undefined : values.number(e).n);
  // a wait written as a TimeSpan or as an int of milliseconds (MassTransit's int overloads)
  const wait = (e: string | undefined): number | undefined => (e === undefined ? undefined : (timeSpanMs(e) ?? int(e)));
  const bad = (why: string) => ({
    problem: { at, text: `${c.name}(${c.args.replace(/\s+/g, ' ').slice(0, 80)}): ${why}` },
  });
  const policy = (form: RetryPolicy['form'], delaysMs: number[], jitter = false) => ({
    policy: { form, delaysMs, jitter, at },
  });
  switch (c.name as (typeof FORMS)[number]) {
    case 'None':
      return policy('None', []);
    case 'Immediate': {
      const n = int(a[0]);
      return n === undefined ? bad('the retry limit is not a value read here') : policy('Immediate', Array(n).fill(0));
    }
    case 'Interval': {
      const n = int(a[0]);
      const w = wait(a[1]);
      return n === undefined || w === undefined
        ? bad('expected Interval(retryLimit, interval) with values read here')
        : policy('Interval', Array(n).fill(w));
    }
    case 'Intervals': {
      const ws = a.map(wait);
      return ws.length === 0 || ws.some((w) => w === undefined)
        ? bad('each interval must be a value read here (ms or TimeSpan)')
        : policy('Intervals', ws as number[]);
    }
    case 'Incremental': {
      const [n, first, step] = [int(a[0]), wait(a[1]), wait(a[2])];
      if (n === undefined || first === undefined || step === undefined)
        return bad('expected Incremental(retryLimit, initialInterval, intervalIncrement) with values read here');
      return policy(
        'Incremental',
        Array.from({ length: n }, (_, i) => first + i * step),
      );
    }
    case 'Exponential': {
      const [n, min, max, delta] = [int(a[0]), wait(a[1]), wait(a[2]), wait(a[3])];
      if (n === undefined || min === undefined || max === undefined || delta === undefined)
        return bad('expected Exponential(retryLimit, minInterval, maxInterval, intervalDelta) with values read here');
      return policy(
        'Exponential',
        Array.from({ length: n }, (_, i) => Math.min(max, min + (2 ** i - 1) * delta)),
        true,
      );
    }
  }
}
