/**
 * The cheap screen before any rehearsal, from what a template documents for a message that always
 * fails (its attempts and the delays between them). Each cut is certain, not a guess:
 * - retries whose span ends before the longest outage does park (or drop) the messages that arrive
 *   as the outage starts, and those could have succeeded;
 * - retries without any delay and without end are a storm: every attempt fails at once, forever;
 * - with an error rate p, about n x p^attempts messages fail every attempt and are parked;
 * - poison messages make every attempt, so amplification is at least 1 + poison x (attempts - 1).
 */
import type { DocumentedOutcome } from '../templates/types.js';
import { formatMs } from '../text/formatDuration.js';
import type { FailureProfile, GoalId, TuneGoals } from './types.js';

export interface Screened {
  readonly attempts: number;
  /** ms from the first attempt to the last one; Infinity when the retries never end */
  readonly spanMs: number;
  /** a rough count of deliveries, to rehearse the likely cheap ones first */
  readonly estimatedDeliveries: number;
}

export type ScreenResult =
  | { readonly kept: true; readonly figures: Screened }
  | { readonly kept: false; readonly goal: GoalId; readonly reason: string };

/** `always`: what happens to a message that always fails (a template's documented outcome, or the retry budget of a design) */
export function screen(
  always: Omit<DocumentedOutcome, 'failure'> | undefined,
  profile: FailureProfile,
  goals: TuneGoals,
): ScreenResult {
  if (!always) return { kept: false, goal: 'no-loss', reason: 'documents no outcome for a message that always fails' };
  const longest = Math.max(...profile.outageLengthsMs);
  const messages = (profile.rate * profile.durationMs) / 1000;
  const endless = always.attempts === 'unbounded' || always.endsIn.kind === 'cycling';
  if (endless && always.delaysMs.every((d) => d === 0))
    return {
      kept: false,
      goal: 'max-amplification',
      reason: 'retries without delay and without end: a storm for as long as the outage lasts',
    };
  if (!endless && always.endsIn.kind === 'held')
    return { kept: false, goal: 'no-loss', reason: `ends ${always.endsIn.kind}` };
  const attempts = endless ? Infinity : (always.attempts as number);
  const spanMs = endless
    ? Infinity
    : always.delaysMs.reduce((a, b) => a + b, 0) + profile.processingMs * (attempts - 1);
  if (spanMs <= longest)
    return {
      kept: false,
      goal: 'no-loss',
      reason: `its ${attempts} attempts span ${formatMs(spanMs)}, shorter than a ${formatMs(longest)} outage: what arrives as it starts is parked`,
    };
  const good = messages * (1 - profile.poison);
  if (profile.errorRate > 0 && good * profile.errorRate ** attempts >= 1)
    return {
      kept: false,
      goal: 'no-loss',
      reason: `with a ${+(profile.errorRate * 100).toFixed(3)}% error rate about ${Math.round(good * profile.errorRate ** attempts)} messages fail all ${attempts} attempts`,
    };
  const poisonAttempts = endless ? Infinity : attempts;
  const floor = 1 + profile.poison * (poisonAttempts - 1);
  if (goals.maxAmplification !== undefined && floor > goals.maxAmplification)
    return {
      kept: false,
      goal: 'max-amplification',
      reason: `poison alone makes the amplification at least ${floor.toFixed(2)}`,
    };
  // attempts made while the outage lasts, for a message that arrives as it starts
  let t = 0;
  let inOutage = 1;
  for (const d of always.delaysMs) {
    t += d;
    if (t >= longest) break;
    inOutage++;
  }
  const estimatedDeliveries = messages * floor + ((profile.rate * longest) / 1000) * inOutage;
  return { kept: true, figures: { attempts, spanMs, estimatedDeliveries } };
}
