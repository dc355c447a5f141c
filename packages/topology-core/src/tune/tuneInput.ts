/**
 * What a user asks the tuner (the CLI's options, the browser's form), checked and resolved into a
 * failure profile, goals and the templates to search. Every error names the option it is about,
 * so the CLI says `--deadline ...` and the form marks its field. Contradicting goals are errors too.
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { RetryTemplate } from '../templates/types.js';
import { formatMs } from '../text/formatDuration.js';
import { strategiesOnProfile } from './strategiesOnProfile.js';
import type { FailureProfile, TuneGoals } from './types.js';

export interface TuneInput {
  readonly rate: number;
  readonly durationMs?: number;
  readonly outageLengthsMs: readonly number[];
  readonly errorRate?: number;
  readonly poison?: number;
  readonly processingMs?: number;
  readonly concurrency?: number;
  readonly bodyBytes?: number;
  readonly profile?: BrokerProfileId;
  readonly deadlineMs?: number;
  readonly deadlineShare?: number;
  readonly maxAmplification?: number;
  readonly maxMemoryBytes?: number;
  readonly maxDepth?: number;
  readonly noPlugins?: boolean;
  readonly strategies?: readonly string[];
  readonly from?: Design;
  /** the broker node's RAM and free disk, bytes (the rehearsal's defaults when absent) */
  readonly brokerMemoryBytes?: number;
  readonly diskFreeBytes?: number;
}

export interface TuneInputIssue {
  /** the CLI option (without dashes) the problem is about */
  readonly option: string;
  readonly message: string;
}

export type ResolvedTuneInput =
  | {
      readonly ok: true;
      readonly profile: FailureProfile;
      readonly goals: TuneGoals;
      readonly templates: readonly RetryTemplate[];
      readonly from?: Design;
    }
  | { readonly ok: false; readonly issues: readonly TuneInputIssue[] };

export const DEFAULT_TUNE_DURATION_MS = 3_600_000;
export const DEFAULT_DEADLINE_SHARE = 0.99;
export const DEFAULT_OUTAGE_MS = 600_000;

export function resolveTuneInput(i: TuneInput): ResolvedTuneInput {
  const issues: TuneInputIssue[] = [];
  const bad = (option: string, message: string): void => void issues.push({ option, message });
  const durationMs = i.durationMs ?? DEFAULT_TUNE_DURATION_MS;
  // the outage starts a minute in (a tenth of a shorter run): the steady state before it is the baseline
  const outageStartMs = Math.min(60_000, Math.floor(durationMs / 10));
  const outages = i.outageLengthsMs.length > 0 ? i.outageLengthsMs : [DEFAULT_OUTAGE_MS];
  if (!(i.rate > 0)) bad('rate', `must be above 0 messages per second, got ${i.rate}`);
  if (!(durationMs > 0)) bad('duration', `must be above 0, got ${durationMs}`);
  for (const L of outages) {
    if (!(L > 0)) bad('outage-length', `must be above 0, got ${L}`);
    else if (outageStartMs + L > durationMs)
      bad(
        'outage-length',
        `${formatMs(L)} does not fit in the ${formatMs(durationMs)} rehearsal (it starts at ${formatMs(outageStartMs)}); raise --duration`,
      );
  }
  const share = (option: string, v: number | undefined): void => {
    if (v !== undefined && !(v >= 0 && v <= 1))
      bad(option, `must be between 0% and 100%, got ${+(v * 100).toFixed(4)}%`);
  };
  share('error-rate', i.errorRate);
  share('poison', i.poison);
  share('deadline-share', i.deadlineShare);
  if (i.errorRate === 1) bad('error-rate', 'at 100% nothing ever succeeds: there is nothing to tune');
  if (i.poison === 1) bad('poison', 'at 100% every message is poison: there is nothing to tune');
  if (i.processingMs !== undefined && !(i.processingMs >= 0))
    bad('processing-ms', `must be 0 or more, got ${i.processingMs}`);
  if (i.concurrency !== undefined && !(Number.isInteger(i.concurrency) && i.concurrency >= 1))
    bad('concurrency', `must be a whole number of at least 1, got ${i.concurrency}`);
  if (i.bodyBytes !== undefined && !(i.bodyBytes >= 0)) bad('body-bytes', `must be 0 or more, got ${i.bodyBytes}`);
  if (i.deadlineMs !== undefined && !(i.deadlineMs > 0)) bad('deadline', `must be above 0, got ${i.deadlineMs}`);
  else if (i.deadlineMs !== undefined && i.processingMs !== undefined && i.deadlineMs <= i.processingMs)
    bad(
      'deadline',
      `${formatMs(i.deadlineMs)} is not longer than the processing time (${i.processingMs} ms): no message can make it`,
    );
  if (i.deadlineShare !== undefined && i.deadlineMs === undefined)
    bad('deadline-share', 'needs --deadline (the share of messages acked within what?)');
  if (i.deadlineShare === 0) bad('deadline-share', 'must be above 0%');
  if (i.maxAmplification !== undefined && !(i.maxAmplification >= 1))
    bad('max-amplification', `must be at least 1 (every message is delivered once), got ${i.maxAmplification}`);
  if (i.maxMemoryBytes !== undefined && !(i.maxMemoryBytes > 0))
    bad('max-memory', `must be above 0 bytes, got ${i.maxMemoryBytes}`);
  if (i.maxDepth !== undefined && !(Number.isInteger(i.maxDepth) && i.maxDepth >= 1))
    bad('max-depth', `must be a whole number of at least 1, got ${i.maxDepth}`);
  if (i.brokerMemoryBytes !== undefined && !(i.brokerMemoryBytes > 0))
    bad('broker-memory', `must be above 0 bytes, got ${i.brokerMemoryBytes}`);
  if (i.diskFreeBytes !== undefined && !(i.diskFreeBytes >= 0))
    bad('disk-free', `must be 0 bytes or more, got ${i.diskFreeBytes}`);
  if (i.from && i.strategies && i.strategies.length > 0)
    bad('strategies', "--from tunes the design's own strategy: leave out --strategies");
  if (i.from && i.noPlugins) bad('no-plugins', '--from tunes the design as it is: leave out --no-plugins');
  const profileId = i.profile ?? i.from?.profile ?? '3.10';
  let templates: readonly RetryTemplate[] = [];
  if (!i.from) {
    const pick = strategiesOnProfile(profileId, i.noPlugins ?? false, i.strategies);
    if (!pick.ok) bad(pick.option, pick.message);
    else templates = pick.templates;
  }
  if (issues.length > 0) return { ok: false, issues };
  const profile: FailureProfile = {
    rate: i.rate,
    durationMs,
    outageStartMs,
    outageLengthsMs: outages,
    errorRate: i.errorRate ?? 0,
    poison: i.poison ?? 0,
    processingMs: i.processingMs ?? 0,
    ...(i.concurrency !== undefined ? { concurrency: i.concurrency } : {}),
    bodyBytes: i.bodyBytes ?? 1024,
    profile: profileId,
    ...(i.brokerMemoryBytes !== undefined ? { brokerMemoryBytes: i.brokerMemoryBytes } : {}),
    ...(i.diskFreeBytes !== undefined ? { diskFreeBytes: i.diskFreeBytes } : {}),
  };
  const goals: TuneGoals = {
    ...(i.deadlineMs !== undefined ? { deadlineMs: i.deadlineMs } : {}),
    deadlineShare: i.deadlineShare ?? DEFAULT_DEADLINE_SHARE,
    ...(i.maxAmplification !== undefined ? { maxAmplification: i.maxAmplification } : {}),
    ...(i.maxMemoryBytes !== undefined ? { maxMemoryBytes: i.maxMemoryBytes } : {}),
    ...(i.maxDepth !== undefined ? { maxDepth: i.maxDepth } : {}),
  };
  return { ok: true, profile, goals, templates, ...(i.from ? { from: i.from } : {}) };
}
