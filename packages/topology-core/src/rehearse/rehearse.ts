/**
 * rehearse(design, load): what a load with failures does to a retry topology (report.ts). The
 * simulator runs the design (every RabbitMQ rule is the simulator's); the load's publishes are
 * its steps, the failure schedule decides each worker's verdicts, and the events are counted
 * with weights as they happen (tally.ts). Big loads run as cohorts (cohorts.ts).
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { SimStep } from '../sim/types.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { Simulator } from '../sim/simulator.js';
import { queueConfig, type QueueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import { arrivalSegments, totalMessages } from './arrivals.js';
import { cohortPlan, perMessagePlan, type PublishPlan } from './cohorts.js';
import { attemptFails } from './failureSchedule.js';
import type { RehearsalLoad } from './load.js';
import { memoryBasis, memoryBytes } from './memory.js';
import { attemptOffsets, fateBreakpoints } from './probe.js';
import type { RehearsalMode, RehearsalReport } from './report.js';
import { resolveLoad, type ResolvedLoad } from './resolveLoad.js';
import { publishStep, rehearsalInput } from './simInput.js';
import { perSecondBinMs } from './rates.js';
import { SpinError, Tally } from './tally.js';
import { formatMs } from '../text/formatDuration.js';
import { fateRulesOf } from '../sim/eventOutcomes.js';

export interface RehearseOptions {
  /** simulate message by message up to this many messages, cohorts above (default 20,000) */
  readonly maxSimulated?: number;
  /** every message, whatever the load (the reference the cohorts are tested against) */
  readonly perMessage?: boolean;
  /** the depth series' step (default: about 3,000 samples over the duration, at least 100 ms) */
  readonly sampleMs?: number;
  /** wall clock for wallMs (default Date.now) */
  readonly now?: () => number;
}

export const DEFAULT_MAX_SIMULATED = 20_000;

/** a load that does not fit the design: every issue names its field */
export class RehearsalLoadError extends Error {
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    this.name = 'RehearsalLoadError';
  }
}

/** the load's problems against this design (empty when it can be rehearsed) */
export function checkLoad(design: Design, load: RehearsalLoad): readonly ValidationIssue[] {
  const r = resolveLoad(design, load);
  return r.ok ? [] : r.errors;
}

export function rehearse(design: Design, load: RehearsalLoad, options: RehearseOptions = {}): RehearsalReport {
  const now = options.now ?? Date.now;
  const started = now();
  const res = resolveLoad(design, load);
  if (!res.ok) throw new RehearsalLoadError(res.errors);
  const r = res.resolved;
  const configs = rehearsalQueues(design, r.profile);
  const notes: string[] = [];
  const segments = arrivalSegments(load);
  const messages = totalMessages(segments);
  const limited = lengthLimited(configs);
  if (limited.length > 0)
    notes.push(
      `length limits on ${limited.join(', ')}: a cohort would count as one message there, so every message was simulated`,
    );
  const delayed = configs.filter((c) => c.delayedRetry !== undefined).map((c) => c.name);
  if (delayed.length > 0)
    notes.push(
      `${delayed.join(', ')}: a returned message waiting out its delayed retry is counted in the depth (the broker holds it; a passive declare counts only the ready ones)`,
    );
  const max = options.maxSimulated ?? DEFAULT_MAX_SIMULATED;
  const perMessage = options.perMessage === true || limited.length > 0 || messages <= max;
  const bounded = [...r.consumers.values()].some((c) => Number.isFinite(c.concurrency) && c.processingMs > 0);
  const plan: PublishPlan = perMessage
    ? perMessagePlan(segments, r.seed)
    : cohortPlan(
        segments,
        Math.max(1, Math.ceil(load.durationMs / max)),
        fateBreakpoints(r, attemptOffsets(design, r)),
        [...r.consumers.values()].map((c) => c.poison),
      );

  const outageStarts = r.outages.map((o) => o.startMs);
  const outageEnds = r.outages.map((o) => o.endMs);
  const sampleMs = options.sampleMs ?? defaultSampleMs(load.durationMs);
  const binMs = perSecondBinMs(load.durationMs + r.afterMs);
  if (binMs > 1000)
    notes.push(
      `per-second peaks are averages over ${formatMs(binMs)} windows: one-second counts over ${formatMs(load.durationMs + r.afterMs)} would not fit in memory`,
    );
  const consumedQueues = new Set(design.consumers.map((c) => c.queue));
  const weighted = plan.kind === 'cohorts';
  const tally = new Tally({
    plan,
    queues: configs.map((c) => c.name),
    sampleMs,
    steadyUntil: outageStarts.length > 0 ? Math.min(...outageStarts) : Infinity,
    drainFrom: outageEnds.length > 0 ? Math.max(...outageEnds) : Infinity,
    ...(weighted && bounded ? { spreadMsOf: (c: string) => spreadOf(r, c) } : {}),
    // every message (or cohort) could be published, delivered and settled a few dozen times in one instant
    maxEventsPerInstant: 200_000 + 100 * plan.count,
    perSecondBinMs: binMs,
    rules: fateRulesOf(design),
  });
  const input = rehearsalInput(design, r, publishSteps(plan, r), {
    failureSchedule: (consumer, ctx, t) => {
      const c = r.consumers.get(consumer);
      if (!c) return true;
      const i = ctx.messageIndex - 1;
      return !attemptFails(
        c,
        r.seed,
        { ordinal: plan.ordinal[i] as number, poisonU: plan.poisonU[i] as number },
        ctx.attempt,
        t,
      );
    },
    ...(weighted && bounded
      ? {
          processingMsOf: (consumer: string, index: number, ms: number) =>
            Number.isFinite(r.consumers.get(consumer)?.concurrency ?? Infinity)
              ? ms * (plan.weight[index - 1] ?? 1)
              : ms,
        }
      : {}),
    onEvent: tally.onEvent,
    maxTimeMs: load.durationMs + r.afterMs,
  });
  const sim = new Simulator(input);
  let spun = false;
  try {
    sim.run();
  } catch (e) {
    if (!(e instanceof SpinError)) throw e;
    spun = true;
    notes.push(
      `stopped at ${e.atMs} ms: messages go round without time passing (an immediate requeue that fails again at once, as RabbitMQ 4.3 does for a basic.nack under a delivery limit); give the consumer a processing time to rehearse it`,
    );
  }
  const endMs = sim.now;
  tally.depths.finish(endMs);
  tally.finishOutcomes(endMs);
  const parkedIn = Object.fromEntries(Object.entries(tally.parkedIn).map(([q, n]) => [q, Math.round(n)]));
  let drainMs: number | null = outageEnds.length === 0 ? 0 : 0;
  if (outageEnds.length > 0) {
    const from = Math.max(...outageEnds);
    for (const q of tally.depths.tracks.values()) {
      if (!consumedQueues.has(q.name) && !q.timed) continue;
      if (q.above) drainMs = null;
      else if (drainMs !== null) drainMs = Math.max(drainMs, q.drainedAt - from);
    }
  }
  const maxWeight = plan.weight.reduce((m, w) => Math.max(m, w), 0);
  const mode: RehearsalMode = weighted
    ? {
        kind: 'cohorts',
        simulated: plan.count,
        bucketMs: plan.bucketMs,
        bound: cohortBound(r, bounded, Math.ceil(maxWeight)),
      }
    : { kind: 'per-message', simulated: plan.count };
  const storm = tally.retries.peak();
  return {
    messages,
    outcomes: {
      acked: Math.round(tally.acked),
      parked: Math.round(tally.parked),
      parkedIn,
      dropped: Math.round(tally.dropped),
      expired: Math.round(tally.expired),
      inFlight: Math.round(tally.inFlight),
    },
    deliveries: Math.round(tally.deliveries),
    amplification: messages > 0 ? round3(tally.deliveries / messages) : 0,
    delayMs: tally.delays.percentiles(),
    drainMs,
    queues: configs.map((cfg) => {
      const q = tally.depths.tracks.get(cfg.name);
      const basis = memoryBasis(cfg, r.profile);
      const peak = Math.round(q?.peak ?? 0);
      return {
        name: cfg.name,
        peakDepth: peak,
        peakAtMs: q?.peakAt ?? 0,
        peakMemoryBytes: memoryBytes(peak, basis, r.bodyBytes),
        series: { t: q?.series.t ?? [], depth: (q?.series.depth ?? []).map((d) => Math.round(d)) },
        memoryBasis: basis,
      };
    }),
    brokerOps: {
      publishesPerSec: tally.publishes.peak().perSec,
      deadLettersPerSec: tally.deadLetters.peak().perSec,
      deliveriesPerSec: tally.deliveriesPerSec.peak().perSec,
      retriesPerSec: storm.perSec,
      retriesPeakAtMs: storm.atMs,
    },
    wallMs: Math.round(now() - started),
    durationMs: load.durationMs,
    endMs,
    truncated: sim.truncated || spun,
    profile: r.profile,
    bodyBytes: r.bodyBytes,
    outages: r.outages.map((o) => ({ target: o.target, consumers: o.consumers, startMs: o.startMs, endMs: o.endMs })),
    mode,
    seriesStepMs: sampleMs,
    hops: sim.hops,
    notes,
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** the design's queues as the rehearsal's profile configures them */
export function rehearsalQueues(design: Design, profileId: BrokerProfileId): QueueConfig[] {
  const profile = profileFor(profileId);
  return design.topology.queues.map((q) =>
    queueConfig(q, design.topology.policies, profile, undefined, design.topology.policyPins),
  );
}

/** queues with a length limit: a cohort would count as one message there, so every message is simulated */
export const lengthLimited = (configs: readonly QueueConfig[]): string[] =>
  configs.filter((c) => c.maxLength !== undefined || c.maxBytes !== undefined).map((c) => c.name);

/** the depth series' default step: about 3,000 samples over the duration, at least 100 ms */
export const defaultSampleMs = (durationMs: number): number => Math.max(100, Math.round(durationMs / 3000 / 100) * 100);

/** the processing time of one message where a cohort keeps a bounded consumer busy */
function spreadOf(r: ResolvedLoad, consumer: string): number {
  const c = r.consumers.get(consumer);
  return c && Number.isFinite(c.concurrency) ? c.processingMs : 0;
}

function cohortBound(r: ResolvedLoad, bounded: boolean, maxWeight: number): string {
  const parts = [
    `a queue's depth and its peak may differ from a per-message run by up to one cohort (${maxWeight} messages)`,
  ];
  if (bounded)
    parts.push(
      "a cohort keeps a bounded consumer busy for all its messages at once: delays within one cohort's processing time",
    );
  if ([...r.consumers.values()].some((c) => c.errorRate > 0))
    parts.push(
      "errors are drawn once per cohort (its first message's draws): the outcomes are a sample with the per-message run's expected values",
    );
  return parts.join('; ');
}

/** the plan's publishes, each at its instant (whole milliseconds: the waits add up exactly) */
function publishSteps(plan: PublishPlan, r: ResolvedLoad): SimStep[] {
  const steps: SimStep[] = [];
  let t = 0;
  for (let i = 0; i < plan.count; i++) {
    const at = plan.publishAt[i] as number;
    if (at > t) {
      steps.push({ kind: 'wait', ms: at - t });
      t = at;
    }
    steps.push(publishStep(r, String(i + 1)));
  }
  return steps;
}
