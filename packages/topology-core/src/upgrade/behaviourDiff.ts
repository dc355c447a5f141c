/**
 * Behaviour that changes: the design simulated under the source and the target profile with
 * the budget's standard failure models (always failing, failing the first K, one poison message
 * among healthy ones), one publisher at a time; each queue where the failing message's fate,
 * attempts, delays or path differ becomes one finding, with the cause in one sentence.
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { ConsumerAction } from '../model/consumer.js';
import { queueNodeId } from '../model/nodeIds.js';
import { queueTypeOf } from '../model/arguments.js';
import { computeBudget, formatMs, type BudgetFailure, type RetryBudget } from '../budget/budget.js';
import { isMoving } from '../sim/messageOutcome.js';
import { collapseRepeats } from '../text/collapseRepeats.js';
import { joinCollapsed } from '../text/collapseRepeats.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import { designParts } from '../sim/designParts.js';
import { partShape } from './partShape.js';
import { SOURCES } from './sources.js';
import type { BehaviourFinding, FateSummary, UpgradeOptions, UpgradeSource } from './types.js';

/** the check's options, and the simulator's event cap for each run */
export interface BehaviourOptions extends UpgradeOptions {
  readonly maxEvents?: number;
}

export function failureModels(k: number): BudgetFailure[] {
  return [{ kind: 'always' }, { kind: 'failFirst', n: k }, { kind: 'poison' }];
}

export function failureText(f: BudgetFailure): string {
  return f.kind === 'always'
    ? 'always failing'
    : f.kind === 'failFirst'
      ? `failing the first ${f.n}`
      : 'one poison message';
}

function summarise(b: RetryBudget): FateSummary {
  const t = b.traces[0];
  return {
    attempts: b.attempts,
    delaysMs: b.delaysMs,
    outcome: b.outcome,
    endsIn: b.outcomeText,
    path: collapseRepeats(t?.path ?? []).map((r) => r.value),
    unbounded: isMoving(b.outcome),
  };
}

export function fateText(f: FateSummary): string {
  const delays = f.delaysMs.some((d) => d > 0)
    ? ` (delays ${joinCollapsed(f.delaysMs.map(formatMs))})`
    : f.delaysMs.length > 0
      ? ' (no delay between attempts)'
      : '';
  // the outcome's own words (sim/outcomeText.ts) say the attempt where they name one
  return f.outcome.kind === 'moving' || f.outcome.kind === 'acked' || f.outcome.kind === 'discarded'
    ? `${f.endsIn}${delays}`
    : `${f.endsIn} after ${f.attempts} attempt(s)${delays}`;
}

export const sameFate = (a: FateSummary, b: FateSummary): boolean => JSON.stringify(a) === JSON.stringify(b);

function actionsOn(design: Design, queue: string): ConsumerAction[] {
  const out: ConsumerAction[] = [];
  const walk = (a: ConsumerAction): void => {
    out.push(a);
    if (a.kind === 'retryInProcess') walk(a.recover);
  };
  for (const c of design.consumers.filter((x) => x.queue === queue)) {
    const b = c.behaviour;
    if (b.kind === 'worker') b.onFailure.forEach((r) => walk(r.then));
    else if (b.kind === 'router') b.rules.forEach((r) => walk(r.then));
    else b.actions.forEach(walk);
  }
  return out;
}

/** Why the fate differs at this queue: the profile differences that apply to it, each with its source. */
export function causesAt(
  design: Design,
  queue: string,
  from: BrokerProfileId,
  to: BrokerProfileId,
): { why: string; sources: UpgradeSource[] }[] {
  const pf = profileFor(from);
  const pt = profileFor(to);
  const t = design.topology;
  const q = t.queues.find((x) => x.name === queue);
  const out: { why: string; sources: UpgradeSource[] }[] = [];
  if (!q) return out;
  const quorum = queueTypeOf(q.arguments) === 'quorum';
  const actions = actionsOn(design, queue);
  const cf = queueConfig(q, t.policies, pf);
  const ct = queueConfig(q, t.policies, pt);
  if (
    quorum &&
    pf.onlyRejectsCountTowardLimit !== pt.onlyRejectsCountTowardLimit &&
    actions.some((a) => a.kind === 'requeue' && a.via !== 'reject')
  )
    out.push({
      why: pt.onlyRejectsCountTowardLimit
        ? 'a basic.nack no longer counts toward x-delivery-limit on 4.3 (a basic.reject does)'
        : 'on this broker a basic.nack counts toward x-delivery-limit again',
      sources: [SOURCES.quorumDeliveryLimit],
    });
  if (quorum && cf.deliveryLimit !== ct.deliveryLimit)
    out.push({
      why:
        ct.deliveryLimit === 20 && cf.deliveryLimit === undefined
          ? 'RabbitMQ 4.x gives a quorum queue without a delivery limit a default of 20'
          : `the effective delivery limit is ${ct.deliveryLimit ?? 'unlimited'} instead of ${cf.deliveryLimit ?? 'unlimited'}`,
      sources: [SOURCES.rn400DeliveryLimit],
    });
  if ((cf.delayedRetry === undefined) !== (ct.delayedRetry === undefined))
    out.push({
      why: ct.delayedRetry
        ? 'the target holds returned messages for x-delayed-retry-*'
        : `RabbitMQ ${to} ignores x-delayed-retry-*: a returned message comes back at once`,
      sources: [SOURCES.quorumDelayedRetry],
    });
  const republishes = design.consumers.some((c) => JSON.stringify(c.behaviour).includes('"republish"'));
  const countsDeaths = design.consumers.some((c) => JSON.stringify(c.behaviour).includes('"deathCount"'));
  if (pf.ignoreClientXDeath !== pt.ignoreClientXDeath && republishes && countsDeaths)
    out.push({
      why: pt.ignoreClientXDeath
        ? 'RabbitMQ 4.x ignores an x-death header set by a client: a republished message starts counting again at 1'
        : 'RabbitMQ 3.x counts on from an x-death header set by a client',
      sources: [SOURCES.republishXDeath, SOURCES.rn400],
    });
  return out;
}

/** The queue where the two runs part: the last queue both paths share before they differ; the busiest one when only counts or delays differ. */
function partingQueue(a: readonly string[], b: readonly string[], fallback: readonly string[]): string | undefined {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i < a.length || i < b.length) return a[i - 1] ?? b[i - 1] ?? a[0] ?? b[0];
  const counts = new Map<string, number>();
  for (const q of fallback) counts.set(q, (counts.get(q) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1])[0]?.[0];
}

function budgetsFor(
  design: Design,
  profile: BrokerProfileId,
  failure: BudgetFailure,
  opts: Pick<BehaviourOptions, 'maxTimeMs' | 'maxEvents'>,
): RetryBudget {
  // the budget's horizon (the design's: sim/retryHorizon.ts): a retry that parks after 40 min is parked here too
  return computeBudget({ ...design, profile }, failure, {
    ...(opts.maxTimeMs !== undefined ? { maxTimeMs: opts.maxTimeMs } : {}),
    maxEvents: opts.maxEvents ?? 20_000,
    messages: 2,
  });
}

/** The failing message's fate for a design (its first publisher) under a profile and a failure model. */
export function fateOf(
  design: Design,
  profile: BrokerProfileId,
  failure: BudgetFailure,
  opts: Pick<BehaviourOptions, 'maxTimeMs' | 'maxEvents'> = {},
): FateSummary {
  return summarise(budgetsFor(design, profile, failure, opts));
}

/** A fate and the failing message's whole path (every queue, repeats kept: where two runs part). */
export interface FateRun {
  readonly fate: FateSummary;
  readonly path: readonly string[];
}

/** A run as simulated (under its shape's tokens, when it has a shape), and how to read it under the part's names. */
export interface PartRun {
  readonly run: FateRun;
  /** the same for every run of one part: two runs of a part can be compared before they are read back */
  readonly back: <T>(value: T) => T;
}

/** How many simulations a fate runner ran and how many it read back from an equal shape (a test counts work with it). */
export interface FateWork {
  simulated: number;
  reused: number;
  /** queues in the designs simulated, summed over the runs: grows with the design, never with its square */
  queues: number;
}

const asIs = <T>(value: T): T => value;

/**
 * Fates of parts of one design, each shape simulated once (upgrade/partShape.ts): the copies of
 * one retry shape share a run, read back under their own names. Parts without a shape run as they are.
 */
export function fateRunner(
  opts: Pick<BehaviourOptions, 'maxTimeMs' | 'maxEvents'> = {},
  work: FateWork = { simulated: 0, reused: 0, queues: 0 },
): (part: Design) => (profile: BrokerProfileId, failure: BudgetFailure) => PartRun {
  const runs = new Map<string, FateRun>();
  const run = (d: Design, profile: BrokerProfileId, failure: BudgetFailure): FateRun => {
    work.simulated++;
    work.queues += d.topology.queues.length;
    const b = budgetsFor(d, profile, failure, opts);
    return { fate: summarise(b), path: b.traces[0]?.path ?? [] };
  };
  return (part) => {
    const shape = partShape(part);
    if (!shape) return (profile, failure) => ({ run: run(part, profile, failure), back: asIs });
    return (profile, failure) => {
      const key = `${profile}|${JSON.stringify(failure)}|${shape.key}`;
      let r = runs.get(key);
      if (r === undefined) runs.set(key, (r = run(shape.design, profile, failure)));
      else work.reused++;
      return { run: r, back: shape.back };
    };
  };
}

export function behaviourDifferences(design: Design, opts: BehaviourOptions, work?: FateWork): BehaviourFinding[] {
  const out: BehaviourFinding[] = [];
  const seen = new Set<string>();
  // each publisher on its own part of the design (sim/designParts.ts): the same runs, without simulating
  // (and linting) every unrelated queue once per publisher, which made the check grow with the square of the design
  const partOf = designParts(design);
  const runner = fateRunner(opts, work);
  for (const [i, p] of design.publishers.entries()) {
    const one = partOf(i);
    const fate = runner(one);
    for (const failure of failureModels(opts.failFirst ?? 3)) {
      const ra = fate(opts.from, failure);
      const rb = fate(opts.to, failure);
      // one part, one reading: compared as simulated, read back only where they differ
      if (sameFate(ra.run.fate, rb.run.fate)) continue;
      const [a, b] = [ra.back(ra.run), rb.back(rb.run)];
      const before = a.fate;
      const after = b.fate;
      const queue = partingQueue(a.path, b.path, a.path) ?? p.exchange;
      const key = `${queue}|${JSON.stringify(before)}|${JSON.stringify(after)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const causes = causesAt(one, queue, opts.from, opts.to);
      const why = causes.length
        ? causes.map((c) => c.why).join('; ')
        : `the two brokers' semantics differ here (sim/profiles.ts)`;
      out.push({
        kind: 'behaviour-changed',
        id: 'fate-changed',
        object: `queue ${queue}`,
        objects: [...new Set([queue, ...before.path, ...after.path])]
          .filter((n) => one.topology.queues.some((q) => q.name === n))
          .map(queueNodeId),
        queue,
        publisher: p.id,
        failure,
        before,
        after,
        message: `${queue} (${failureText(failure)}, from ${p.id}): on ${opts.from} ${fateText(before)}; on ${opts.to} ${fateText(after)}: ${why}.`,
        fix: causes.some((c) => c.why.includes('nack'))
          ? 'Requeue with basic.reject (requeue=true), or count attempts in the consumer and reject without requeue.'
          : causes.some((c) => c.why.includes('x-death'))
            ? 'Count retries in a header of your own (x-retries), not in x-death.'
            : causes.some((c) => c.why.includes('default of 20'))
              ? 'Set delivery-limit explicitly by policy (-1: unlimited).'
              : 'See the migration (upgrade-check --migrated-out FILE writes it) for a design that keeps the old fate where the target allows it.',
        sources: causes.length ? causes.flatMap((c) => c.sources) : [SOURCES.measured],
      });
    }
  }
  return out;
}
