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
import { BUDGET_HORIZON_MS, computeBudget, formatMs, type BudgetFailure, type RetryBudget } from '../budget/budget.js';
import { collapseRepeats } from '../text/collapseRepeats.js';
import { joinCollapsed } from '../text/collapseRepeats.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
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
    unbounded: b.outcome.kind === 'moving',
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

const sameFate = (a: FateSummary, b: FateSummary): boolean => JSON.stringify(a) === JSON.stringify(b);

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
  // the budget's horizon: a retry that parks after 40 min is parked here too, not "still moving" at 10 min
  return computeBudget({ ...design, profile }, failure, {
    maxTimeMs: opts.maxTimeMs ?? BUDGET_HORIZON_MS,
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

export { sameFate };

export function behaviourDifferences(design: Design, opts: BehaviourOptions): BehaviourFinding[] {
  const out: BehaviourFinding[] = [];
  const seen = new Set<string>();
  for (const p of design.publishers) {
    const one: Design = { ...design, publishers: [p] };
    for (const failure of failureModels(opts.failFirst ?? 3)) {
      const a = budgetsFor(one, opts.from, failure, opts);
      const b = budgetsFor(one, opts.to, failure, opts);
      const before = summarise(a);
      const after = summarise(b);
      if (sameFate(before, after)) continue;
      const queue =
        partingQueue(a.traces[0]?.path ?? [], b.traces[0]?.path ?? [], a.traces[0]?.path ?? []) ?? p.exchange;
      const key = `${queue}|${JSON.stringify(before)}|${JSON.stringify(after)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const causes = causesAt(design, queue, opts.from, opts.to);
      const why = causes.length
        ? causes.map((c) => c.why).join('; ')
        : `the two brokers' semantics differ here (sim/profiles.ts)`;
      out.push({
        kind: 'behaviour-changed',
        id: 'fate-changed',
        object: `queue ${queue}`,
        objects: [...new Set([queue, ...before.path, ...after.path])]
          .filter((n) => design.topology.queues.some((q) => q.name === n))
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
