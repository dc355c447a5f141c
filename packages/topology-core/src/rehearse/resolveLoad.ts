/**
 * Checks a load against a design and resolves it: every error names its field (`rate`,
 * `targets[0].consumerOutages[1].startMs`); targets (a consumer id, or a queue name for all its
 * consumers) become one ConsumerLoad per worker consumer.
 */
import { BROKER_PROFILE_IDS, type BrokerProfileId, type Design } from '../model/design.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { ValidationIssue } from '../model/validateResult.js';
import {
  DEFAULT_AFTER_MS,
  DEFAULT_BODY_BYTES,
  type ConsumerLoad,
  type OutageWindow,
  type RehearsalLoad,
  type TargetLoad,
} from './load.js';

export interface ResolvedLoad {
  readonly load: RehearsalLoad;
  readonly profile: BrokerProfileId;
  readonly publisher: PublisherSpec;
  /** by consumer id: every worker consumer of the design */
  readonly consumers: ReadonlyMap<string, ConsumerLoad>;
  readonly seed: number;
  readonly bodyBytes: number;
  readonly afterMs: number;
  /** the outages as given, with the consumers each one stops */
  readonly consumerOutages: readonly ResolvedOutage[];
}

export interface ResolvedOutage extends OutageWindow {
  readonly target: string;
  readonly consumers: readonly string[];
}

export type ResolveLoadResult =
  | { readonly ok: true; readonly resolved: ResolvedLoad }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

const PROFILES: readonly BrokerProfileId[] = BROKER_PROFILE_IDS;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function resolveLoad(design: Design, load: RehearsalLoad): ResolveLoadResult {
  const errors: ValidationIssue[] = [];
  const err = (path: string, code: string, message: string): void => void errors.push({ path, code, message });
  if (!isNum(load.durationMs) || load.durationMs <= 0)
    err('durationMs', 'duration-range', `the duration must be above 0 ms (got ${String(load.durationMs)})`);
  const duration = isNum(load.durationMs) ? load.durationMs : 0;
  checkRates(load, duration, err);
  checkShare(load.errorRate, 'errorRate', err);
  checkShare(load.poison, 'poison', err);
  checkProcessing(load.processingMs, load.concurrency, '', err);
  if (load.bodyBytes !== undefined && (!isNum(load.bodyBytes) || load.bodyBytes < 0))
    err('bodyBytes', 'body-range', 'the body size must be 0 bytes or more');
  if (load.afterMs !== undefined && (!isNum(load.afterMs) || load.afterMs < 0))
    err('afterMs', 'after-range', 'afterMs must be 0 or more');
  if (load.brokerMemoryBytes !== undefined && (!isNum(load.brokerMemoryBytes) || load.brokerMemoryBytes <= 0))
    err(
      'brokerMemoryBytes',
      'memory-range',
      `the broker's memory must be above 0 bytes (got ${String(load.brokerMemoryBytes)})`,
    );
  if (load.diskFreeBytes !== undefined && (!isNum(load.diskFreeBytes) || load.diskFreeBytes < 0))
    err('diskFreeBytes', 'disk-range', `the free disk must be 0 bytes or more (got ${String(load.diskFreeBytes)})`);
  if (load.profile !== undefined && !PROFILES.includes(load.profile))
    err(
      'profile',
      'profile-unknown',
      `unknown broker profile "${String(load.profile)}"; known: ${PROFILES.join(', ')}`,
    );
  const publisher = design.publishers[0];
  if (!publisher)
    err(
      'design.publishers',
      'no-publisher',
      'the design has no publisher: a rehearsal publishes through the first one',
    );

  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker');
  const perConsumer = new Map<string, { target: TargetLoad; consumerOutages: OutageWindow[] }[]>();
  const consumerOutages: ResolvedOutage[] = [];
  (load.targets ?? []).forEach((t, i) => {
    const path = `targets[${i}]`;
    const ids = targetConsumers(design, t.target);
    if (ids === undefined) {
      const known = [...design.consumers.map((c) => c.id), ...new Set(design.consumers.map((c) => c.queue))];
      err(
        `${path}.target`,
        'target-unknown',
        `"${String(t.target)}" is neither a consumer nor a consumed queue of the design; known: ${known.join(', ')}`,
      );
      return;
    }
    const failing = ids.filter((id) => workers.some((w) => w.id === id));
    if (failing.length === 0) {
      err(
        `${path}.target`,
        'target-not-worker',
        `"${t.target}" has no worker consumer (a router consumer never fails)`,
      );
      return;
    }
    checkShare(t.errorRate, `${path}.errorRate`, err);
    checkShare(t.poison, `${path}.poison`, err);
    checkProcessing(t.processingMs, t.concurrency, `${path}.`, err);
    const windows: OutageWindow[] = [];
    (t.consumerOutages ?? []).forEach((o, j) => {
      const op = `${path}.consumerOutages[${j}]`;
      if (!isNum(o.startMs) || o.startMs < 0 || (duration > 0 && o.startMs >= duration))
        err(
          `${op}.startMs`,
          'outage-outside',
          `the outage of "${t.target}" starts at ${String(o.startMs)} ms, outside the load's duration 0..${duration} ms`,
        );
      else if (!isNum(o.endMs) || o.endMs <= o.startMs)
        err(`${op}.endMs`, 'outage-range', `the outage of "${t.target}" must end after it starts (${o.startMs} ms)`);
      else if (duration > 0 && o.endMs > duration)
        err(
          `${op}.endMs`,
          'outage-outside',
          `the outage of "${t.target}" ends at ${o.endMs} ms, after the load's duration ${duration} ms`,
        );
      else {
        windows.push({ startMs: o.startMs, endMs: o.endMs });
        consumerOutages.push({ target: t.target, consumers: failing, startMs: o.startMs, endMs: o.endMs });
      }
    });
    for (const id of failing) {
      const list = perConsumer.get(id) ?? [];
      list.push({ target: t, consumerOutages: windows });
      perConsumer.set(id, list);
    }
  });
  if (errors.length > 0 || !publisher) return { ok: false, errors };

  const consumers = new Map<string, ConsumerLoad>();
  for (const w of workers) {
    const own = perConsumer.get(w.id) ?? [];
    const pick = <K extends 'processingMs' | 'concurrency' | 'errorRate' | 'poison'>(k: K): number | undefined => {
      for (let i = own.length - 1; i >= 0; i--)
        if ((own[i] as { target: TargetLoad }).target[k] !== undefined)
          return (own[i] as { target: TargetLoad }).target[k];
      return load[k];
    };
    consumers.set(w.id, {
      consumer: w.id,
      processingMs: pick('processingMs') ?? 0,
      concurrency: pick('concurrency') ?? Infinity,
      consumerOutages: own.flatMap((o) => o.consumerOutages).sort((a, b) => a.startMs - b.startMs),
      errorRate: pick('errorRate') ?? 0,
      poison: pick('poison') ?? 0,
    });
  }
  return {
    ok: true,
    resolved: {
      load,
      profile: load.profile ?? design.profile ?? '3.10',
      publisher,
      consumers,
      seed: load.seed ?? 1,
      bodyBytes: load.bodyBytes ?? DEFAULT_BODY_BYTES,
      afterMs: load.afterMs ?? DEFAULT_AFTER_MS,
      consumerOutages,
    },
  };
}

/** a consumer id, or a queue name (every consumer of it); undefined when neither */
function targetConsumers(design: Design, target: unknown): string[] | undefined {
  if (typeof target !== 'string') return undefined;
  const byId = design.consumers.filter((c) => c.id === target);
  if (byId.length > 0) return byId.map((c) => c.id);
  const byQueue = design.consumers.filter((c) => c.queue === target);
  return byQueue.length > 0 ? byQueue.map((c) => c.id) : undefined;
}

function checkRates(load: RehearsalLoad, duration: number, err: (p: string, c: string, m: string) => void): void {
  if (load.phases !== undefined && load.phases.length > 0) {
    let any = false;
    load.phases.forEach((p, i) => {
      if (!isNum(p.at) || p.at < 0 || (duration > 0 && p.at >= duration))
        err(
          `phases[${i}].at`,
          'phase-outside',
          `phase ${i + 1} starts at ${String(p.at)} ms, outside the duration 0..${duration} ms`,
        );
      if (!isNum(p.rate) || p.rate < 0)
        err(`phases[${i}].rate`, 'rate-range', `phase ${i + 1}'s rate must be 0 or more messages per second`);
      else if (p.rate > 0) any = true;
    });
    if (!any) err('phases', 'rate-range', 'at least one phase must have a rate above 0');
    if (!load.phases.some((p) => p.at === 0)) err('phases', 'phase-start', 'the first phase must start at 0 ms');
    return;
  }
  if (!isNum(load.rate) || load.rate <= 0)
    err('rate', 'rate-range', `the rate must be above 0 messages per second (got ${String(load.rate)})`);
}

function checkShare(v: number | undefined, path: string, err: (p: string, c: string, m: string) => void): void {
  if (v === undefined) return;
  if (!isNum(v) || v < 0 || v > 1)
    err(
      path,
      'share-range',
      `${path} must be between 0% and 100% (got ${isNum(v) ? `${+(v * 100).toFixed(4)}%` : String(v)})`,
    );
}

function checkProcessing(
  ms: number | undefined,
  conc: number | undefined,
  prefix: string,
  err: (p: string, c: string, m: string) => void,
): void {
  if (ms !== undefined && (!isNum(ms) || ms < 0))
    err(`${prefix}processingMs`, 'processing-range', 'the processing time must be 0 ms or more');
  if (conc !== undefined && (!Number.isInteger(conc) || conc < 1))
    err(`${prefix}concurrency`, 'concurrency-range', 'the concurrency must be a whole number of 1 or more');
}
