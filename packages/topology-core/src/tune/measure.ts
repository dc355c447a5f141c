/**
 * One candidate rehearsed under one outage length (the rehearse floor does the work), read into
 * the tuner's figures:
 * - the outage stops every worker consumer of the design (the failing dependency) from
 *   `outageStartMs` for the outage's length; errors, poison, processing and concurrency apply to
 *   every worker;
 * - the rehearsal follows what is left long enough for the candidate's retries to end, so a
 *   poison message is parked (or still retrying) for the candidate's own reasons, not cut off;
 * - `lostGood`: parked, dropped or expired beyond the poison share (poison always ends there);
 * - `withinDeadline`: the rehearsal reports delay percentiles (p50, p95, p99, max) of the acked
 *   messages, so the share within the deadline is the largest of those quantiles at or under it,
 *   times the share of good messages acked: a lower bound, so a goal it passes is met;
 * - `brokerOps`: publishes + deliveries + one dead-lettering, republish or requeue per failed
 *   delivery (the work a retry costs the broker);
 * - RAM and disk: the node's peaks from the rehearsal's bill (a calibration's figures), RAM above
 *   the node's idle use; held messages count in the depth and the bill;
 * - capacity: a hot loop, a resource alarm or a queue asked beyond its ceiling, said.
 */
import type { Calibration } from '../calibration/index.js';
import type { Design } from '../model/design.js';
import { DEFAULT_AFTER_MS, poisonDraw, rehearse, type RehearsalLoad, type RehearsalReport } from '../rehearse/index.js';
import { formatMs } from '../text/formatDuration.js';
import type { FailureProfile, TuneGoals, TuneMetrics } from './types.js';
import type { Measure } from './tune.js';

/** the longest tail a rehearsal follows after the last arrival */
const MAX_AFTER_MS = 24 * 3_600_000;

export function tuneLoad(design: Design, p: FailureProfile, outageLengthMs: number, spanMs: number): RehearsalLoad {
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const outage = { startMs: p.outageStartMs, endMs: p.outageStartMs + outageLengthMs };
  return {
    rate: p.rate,
    durationMs: p.durationMs,
    bodyBytes: p.bodyBytes,
    processingMs: p.processingMs,
    ...(p.concurrency !== undefined ? { concurrency: p.concurrency } : {}),
    errorRate: p.errorRate,
    poison: p.poison,
    profile: p.profile,
    ...(p.brokerMemoryBytes !== undefined ? { brokerMemoryBytes: p.brokerMemoryBytes } : {}),
    ...(p.diskFreeBytes !== undefined ? { diskFreeBytes: p.diskFreeBytes } : {}),
    afterMs: Math.min(
      MAX_AFTER_MS,
      Math.max(DEFAULT_AFTER_MS, Number.isFinite(spanMs) ? spanMs + outageLengthMs : DEFAULT_AFTER_MS),
    ),
    targets: workers.map((target) => ({ target, consumerOutages: [outage] })),
  };
}

export function readMetrics(
  r: RehearsalReport,
  outageLengthMs: number,
  p: FailureProfile,
  goals: TuneGoals,
): TuneMetrics {
  const o = r.outcomes;
  // message by message, poison is a seeded draw per message (seed 1): count the same draws; cohorts split it exactly by share
  let poison = r.messages * p.poison;
  if (r.mode.kind === 'per-message' && p.poison > 0) {
    poison = 0;
    for (let k = 1; k <= r.messages; k++) if (poisonDraw(1, k) < p.poison) poison++;
  }
  const lost = o.parked + o.dropped + o.expired - poison;
  const good = r.messages - poison;
  const delay = r.delayMs ?? { p50: 0, p95: 0, p99: 0, max: 0 };
  return {
    outageLengthMs,
    messages: r.messages,
    outcomes: { acked: o.acked, parked: o.parked, dropped: o.dropped, expired: o.expired, inFlight: o.inFlight },
    lostGood: lost < 0.5 ? 0 : Math.round(lost),
    deliveries: r.deliveries,
    amplification: r.amplification,
    delayMs: delay,
    ...(goals.deadlineMs !== undefined
      ? {
          withinDeadline: r.delayMs
            ? withinDeadline(r.delayMs, goals.deadlineMs) * Math.min(1, o.acked / Math.max(1, good))
            : 0,
        }
      : {}),
    drainMs: r.drainMs,
    peakDepth: Math.max(0, ...r.queues.map((q) => q.peakDepth + q.peakHeld), ...r.held.map((h) => h.peakHeld)),
    peakHeld: r.queues.reduce((s, q) => s + q.peakHeld, 0) + r.held.reduce((s, h) => s + h.peakHeld, 0),
    peakMemoryBytes: Math.max(0, r.node.peakMemoryBytes - r.node.idleMemoryBytes),
    peakDiskBytes: r.node.peakDiskBytes,
    ...capacityOf(r),
    brokerOps: r.messages + r.deliveries + Math.max(0, r.deliveries - o.acked),
  };
}

/** more work than the broker can do, said: a hot loop, an alarm, a queue beyond its ceiling */
function capacityOf(r: RehearsalReport): { capacity?: string } {
  const l = r.loops[0];
  if (l) return { capacity: `${l.queue} runs a hot loop at ${l.deliveriesPerSecond}/s (the broker's rate)` };
  const a = r.node.alarms[0];
  if (a)
    return {
      capacity: `a ${a.kind} alarm blocks every publisher from ${formatMs(a.fromMs)}${a.untilMs === null ? ' to the end' : ` for ${formatMs(a.untilMs - a.fromMs)}`}`,
    };
  const c = r.capacity[0];
  if (c)
    return {
      capacity: `${c.queue} is asked for ${c.peakPerSec}/s (${c.operation}), above its measured ${c.ceilingPerSec}/s`,
    };
  return {};
}

/** the largest reported quantile whose delay is within the deadline */
function withinDeadline(
  d: { readonly p50: number; readonly p95: number; readonly p99: number; readonly max: number },
  deadlineMs: number,
): number {
  if (d.max <= deadlineMs) return 1;
  if (d.p99 <= deadlineMs) return 0.99;
  if (d.p95 <= deadlineMs) return 0.95;
  if (d.p50 <= deadlineMs) return 0.5;
  return 0;
}

/** one candidate under one outage length at full scale, with the broker figures of `calibration` (default the shipped one) */
export const candidateRehearsal =
  (calibration?: Calibration): Measure =>
  (design, p, outageLengthMs, goals, spanMs) =>
    readMetrics(
      rehearse(design, tuneLoad(design, p, outageLengthMs, spanMs), calibration ? { calibration } : {}),
      outageLengthMs,
      p,
      goals,
    );

export const rehearseCandidate: Measure = candidateRehearsal();

/**
 * The coarse pass's rehearsal: the same load thinned to at most `maxMessages` messages (the rate,
 * and a bounded concurrency with it, scaled by one factor, so the consumers are as busy as at full
 * rate), message by message. Shares, delays and amplification do not depend on the scale; counts,
 * depths, memory and operations are scaled back up. A loss at the small scale is a loss. The
 * answer is always rehearsed again at full scale (tune.ts): this only orders and prunes.
 */
export function rehearseScaled(maxMessages: number, calibration?: Calibration): Measure {
  return (design, p, outageLengthMs, goals, spanMs) => {
    const full = (p.rate * p.durationMs) / 1000;
    const k = Math.min(1, maxMessages / full);
    if (k === 1) return candidateRehearsal(calibration)(design, p, outageLengthMs, goals, spanMs);
    const small: FailureProfile = {
      ...p,
      rate: p.rate * k,
      ...(p.concurrency !== undefined ? { concurrency: Math.max(1, Math.round(p.concurrency * k)) } : {}),
    };
    const m = readMetrics(
      rehearse(design, tuneLoad(design, small, outageLengthMs, spanMs), {
        perMessage: true,
        ...(calibration ? { calibration } : {}),
      }),
      outageLengthMs,
      small,
      goals,
    );
    const up = (x: number): number => Math.round(x / k);
    return {
      ...m,
      messages: up(m.messages),
      outcomes: {
        acked: up(m.outcomes.acked),
        parked: up(m.outcomes.parked),
        dropped: up(m.outcomes.dropped),
        expired: up(m.outcomes.expired),
        inFlight: up(m.outcomes.inFlight),
      },
      deliveries: up(m.deliveries),
      peakDepth: up(m.peakDepth),
      peakHeld: up(m.peakHeld),
      peakMemoryBytes: up(m.peakMemoryBytes),
      peakDiskBytes: up(m.peakDiskBytes),
      brokerOps: up(m.brokerOps),
      // a thinned load's node is not the real one's: only a hot loop (at the broker's rate whatever the load) counts here
      ...(m.capacity !== undefined && /hot loop/.test(m.capacity) ? { capacity: m.capacity } : { capacity: undefined }),
    };
  };
}
