/**
 * `upgrade-check --verify-on ... --trace`: a short live trace of each behaviour difference on the
 * target broker. The original design (what runs today, now on the target) is declared in a
 * throwaway vhost and traced with the finding's failure model, one message, for a few seconds;
 * where the message ended (acked, parked in a queue, dropped, still moving) is set next to the
 * check's prediction for the target. The vhost is deleted afterwards, whatever happened.
 */
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import type { BehaviourFinding } from '@retry-studio/topology-core/upgrade';
import { outcomesOfEvents, outcomeTone, type MessageOutcome } from '@retry-studio/topology-core/sim';
import { ManagedConnection, redactUrl, withVhost } from '../broker/index.js';
import { TraceSession } from '../trace/traceSession.js';
import { declareAll, type VerifyTarget } from './verifyUpgrade.js';
import { inThrowawayVhost } from '../broker/throwawayVhost.js';

export interface LiveTraceResult {
  readonly finding: string;
  /** what the check predicted on the target: acked, parked in Q, dropped, still moving */
  readonly predicted: string;
  /** what the broker did in the trace's time */
  readonly observed: string;
  /** waits between processing attempts: predicted (virtual ms) and seen live (ms, rounded) */
  readonly predictedDelaysMs: readonly number[];
  readonly observedDelaysMs: readonly number[];
  readonly agrees: boolean;
  readonly vhost: string;
  readonly cleanedUp: boolean;
}

/** The trace's failure model for a budget failure (poison: not traced, it is the always-failing case among healthy ones). */
export function traceFailure(f: BehaviourFinding['failure']): FailureModel | undefined {
  return f.kind === 'always' ? { kind: 'always' } : f.kind === 'failFirst' ? { kind: 'failFirst', n: f.n } : undefined;
}

/** An outcome in the few words the check sets side by side (predicted and observed alike). */
export function shortOutcome(o: MessageOutcome): string {
  if (o.kind === 'moving') return 'still moving';
  if (o.kind === 'parked') return `parked in ${o.queue}`;
  if (outcomeTone(o) === 'loss') return 'dropped';
  if (o.kind === 'held') return `held by ${o.consumer}`;
  return 'acked';
}

/** Long enough for the predicted waits (plus 3 s), at least 5 s, at most 30 s. */
export function traceDurationMs(f: BehaviourFinding): number {
  const waits = (d: readonly number[]) => d.reduce((a, b) => a + b, 0);
  return Math.min(
    30_000,
    Math.max(5_000, Math.max(waits(f.after.delaysMs), f.after.unbounded ? 0 : waits(f.before.delaysMs)) + 3_000),
  );
}

export async function traceDifference(
  t: VerifyTarget,
  design: Design,
  f: BehaviourFinding,
  durationMs = traceDurationMs(f),
): Promise<LiveTraceResult | undefined> {
  const failure = traceFailure(f.failure);
  if (!failure) return undefined;
  const predicted = shortOutcome(f.after.outcome);
  const { vhost, result, cleanedUp } = await inThrowawayVhost(t.management, 'trace', async (vhost) => {
    const conn = new ManagedConnection(withVhost(t.url, vhost), 'trace', { label: 'upgrade-check trace' });
    try {
      const declared = await declareAll(t, vhost, design.topology);
      const refused = declared.filter((d) => d.error !== undefined && !d.object.startsWith('binding '));
      if (refused.length > 0)
        return {
          observed: `not traced: the broker refused ${refused.map((d) => d.object).join(', ')}`,
          observedDelaysMs: [],
        };
      await conn.start();
      const session = new TraceSession(
        { ...design, profile: t.profile },
        { vhost, prefix: '' },
        conn,
        t.management,
        redactUrl(t.url),
        { publisher: f.publisher, messages: 1, failure, durationMs, settleMs: 300 },
      );
      await session.start();
      const s = await session.done();
      const times = session.log
        .events()
        .filter((e) => e.kind === 'processed')
        .map((e) => e.t);
      // the live message's outcome by the core's one outcome function, read from the trace's events (as the live lanes read it)
      const [o] = outcomesOfEvents({ ...design, profile: t.profile }, session.log.events(), {
        running: false,
        failure,
      }).byMsg.values();
      // the broker's counts correct what the events show: a dead letter it dropped (at most once) was never parked
      const observed =
        o === undefined ? `unknown (${s.state})` : o.kind === 'parked' && s.dropped > 0 ? 'dropped' : shortOutcome(o);
      return {
        observed,
        observedDelaysMs: times.slice(1).map((x, i) => Math.round(x - times[i]!)),
      };
    } finally {
      await conn.close().catch(() => undefined);
    }
  });
  const { observed, observedDelaysMs } = result;
  const agrees = predicted === observed && delaysAgree(f.after.delaysMs, observedDelaysMs);
  // the first 20 waits are enough to read (a message retried forever has thousands)
  return {
    finding: f.message,
    predicted,
    observed,
    predictedDelaysMs: f.after.delaysMs.slice(0, 20),
    observedDelaysMs: observedDelaysMs.slice(0, 20),
    agrees,
    vhost,
    cleanedUp,
  };
}

/**
 * The waits the trace saw match the predicted ones, as far as both go: a predicted wait within
 * 150 ms + 20% (a live wait is late by the broker's timer and the client); immediate retries
 * (every predicted wait 0) by their median, so one stall of a busy shared broker is not a wait.
 */
export function delaysAgree(predicted: readonly number[], observed: readonly number[]): boolean {
  const n = Math.min(predicted.length, observed.length);
  if (n === 0) return true;
  if (predicted.slice(0, n).every((d) => d === 0)) {
    const sorted = observed.slice(0, n).sort((a, b) => a - b);
    return sorted[Math.floor(n / 2)]! < 150;
  }
  for (let i = 0; i < n; i++) if (Math.abs(observed[i]! - predicted[i]!) > 150 + 0.2 * predicted[i]!) return false;
  return true;
}
