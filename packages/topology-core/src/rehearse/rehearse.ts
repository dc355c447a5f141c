/**
 * rehearse(design, load): what a load with failures does to a retry topology and to the broker
 * (report.ts). The simulator runs the design (every RabbitMQ rule is the simulator's); the load's
 * publishes are its steps, the failure schedule decides each worker's verdicts, the events are
 * counted with weights as they happen (tally.ts), and the broker's bill is read from a calibration
 * (brokerBill.ts). Big loads run as cohorts (cohorts.ts). With outages, the same load runs again
 * without them: the drain is measured against that baseline (drain.ts).
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { ValidationIssue } from '../model/validateResult.js';
import type { Calibration } from '../calibration/index.js';
import { queueConfig, type QueueConfig } from '../sim/queueConfig.js';
import { perSecondBinMs } from './rates.js';
import { formatMs } from '../text/formatDuration.js';
import { profileFor } from '../sim/profiles.js';
import { assembleReport } from './assembleReport.js';
import { billSetup } from './billSetup.js';
import type { RehearsalLoad } from './load.js';
import { planOf, runRehearsal, type RunOptions, type RunOutput } from './rehearsalRun.js';
import type { RehearsalReport } from './report.js';
import { resolveLoad, type ResolvedLoad } from './resolveLoad.js';
import { attemptOffsets } from './probe.js';

export interface RehearseOptions {
  /** simulate message by message up to this many messages, cohorts above (default 20,000) */
  readonly maxSimulated?: number;
  /** every message, whatever the load (the reference the cohorts are tested against) */
  readonly perMessage?: boolean;
  /** the depth series' step (default: about 3,000 samples over the duration, at least 100 ms) */
  readonly sampleMs?: number;
  /** wall clock for wallMs (default Date.now) */
  readonly now?: () => number;
  /** the broker's figures (RAM, disk, ceilings); default the shipped calibration of the rules' version */
  readonly calibration?: Calibration;
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
  const setup = billSetup(design, r, configs, options.calibration);
  const notes: string[] = [...setup.notes];
  const limited = lengthLimited(configs);
  if (limited.length > 0)
    notes.push(
      `length limits on ${limited.join(', ')}: a cohort would count as one message there, so every message was simulated`,
    );
  const delayed = configs.filter((c) => c.delayedRetry !== undefined).map((c) => c.name);
  if (delayed.length > 0)
    notes.push(
      `${delayed.join(', ')}: a returned message waiting out its delayed retry is held (peakHeld), not in the depth: the broker does not count it as ready`,
    );
  const sampleMs = options.sampleMs ?? defaultSampleMs(load.durationMs);
  const binMs = perSecondBinMs(load.durationMs + r.afterMs);
  if (binMs > 1000)
    notes.push(
      `per-second peaks are averages over ${formatMs(binMs)} windows: one-second counts over ${formatMs(load.durationMs + r.afterMs)} would not fit in memory`,
    );
  const runOptions: RunOptions = {
    maxSimulated: options.maxSimulated ?? DEFAULT_MAX_SIMULATED,
    perMessage: options.perMessage === true,
    sampleMs,
    queues: configs.map((c) => c.name),
  };
  const plan = planOf(design, r, runOptions, limited.length > 0);
  const run = runRehearsal(design, r, setup, runOptions, plan);
  if (run.spunAtMs !== undefined)
    notes.push(
      `stopped at ${run.spunAtMs} ms: messages go round without time passing (an immediate requeue that fails again at once, and no ceiling to bound it); give the consumer a processing time to rehearse it`,
    );
  let baseline: RunOutput | undefined;
  if (r.consumerOutages.length > 0) {
    const calm = resolveLoad(design, withoutOutages(load));
    if (calm.ok)
      baseline = runRehearsal(
        design,
        calm.resolved,
        setup,
        runOptions,
        planOf(design, calm.resolved, runOptions, plan.kind === 'per-message'),
      );
  }
  if (
    run.bill.alarms.some((a) => a.kind === 'memory') &&
    r.profile === '3.10' &&
    [...setup.queues.values()].some((q) => q.storage === 'classic v1')
  )
    notes.push(
      '3.10 classic queues page messages to disk from half the memory watermark (vm_memory_high_watermark_paging_ratio 0.5): the bill counts what they hold before paging, so the memory alarm may come later than said here',
    );
  const report = assembleReport({
    design,
    r,
    configs,
    setup,
    run,
    ...(baseline ? { baseline } : {}),
    notes,
    sampleMs,
    wallMs: now() - started,
  });
  return r.consumerOutages.length > 0 ? { ...report, failingAttempts: failingAttempts(design, r) } : report;
}

/** an always failing message: how often the workers try it, from its first attempt to its last */
function failingAttempts(design: Design, r: ResolvedLoad): NonNullable<RehearsalReport['failingAttempts']> {
  const all = [...attemptOffsets(design, r).values()].flat();
  if (all.length >= ENDLESS_ATTEMPTS) return { attempts: all.length, spanMs: null };
  return { attempts: all.length, spanMs: all.length === 0 ? 0 : Math.max(...all) - Math.min(...all) };
}

/** this many attempts of one message in the probe: it never ends */
const ENDLESS_ATTEMPTS = 1000;

/** the same load with no consumer outage (the drain's baseline) */
export function withoutOutages(load: RehearsalLoad): RehearsalLoad {
  return { ...load, targets: (load.targets ?? []).map((t) => ({ ...t, consumerOutages: [] })) };
}

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
