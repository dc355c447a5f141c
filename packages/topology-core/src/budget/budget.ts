/**
 * Retry budget: what a strategy really does to a failing message, measured by simulation.
 * Attempts, the delay schedule, time to the final outcome, where it ends, broker operations
 * per failed message, objects to declare, and risks; plus a side-by-side comparison.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { lintDesign } from '../lint/lintDesign.js';
import type { Ending, MessageOutcome } from '../sim/messageOutcome.js';
import type { BrokerOps, MessageTrace } from '../sim/messageTrace.js';
import { outcomesOfRun } from '../sim/runOutcomes.js';
import { describeOutcome } from '../sim/outcomeText.js';
import { BASE_HORIZON_MS, retryHorizon } from '../sim/retryHorizon.js';
import { isMoving } from '../sim/messageOutcome.js';
import { joinCollapsed } from '../text/collapseRepeats.js';
import { nameList } from '../text/nameList.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import type { SimEvent } from '../sim/events.js';
import { formatMs } from '../text/formatDuration.js';
import type { NodeLoss } from '../sim/nodeLoss.js';

/**
 * The shortest horizon a budget follows a message for (virtual ms); a design whose TTL chains are
 * longer gets a longer one (sim/retryHorizon.ts: computeBudget, simulate and the upgrade check read it)
 */
export const BUDGET_HORIZON_MS = BASE_HORIZON_MS;

export type BudgetFailure =
  | { readonly kind: 'failFirst'; readonly n: number }
  | { readonly kind: 'always' }
  /** one poison message among `messages` healthy ones (it always fails; the others never do) */
  | { readonly kind: 'poison' };

export type RiskKind = 'head-of-line' | 'reordering' | 'duplicates' | 'loss' | 'unbounded';

export interface Risk {
  readonly kind: RiskKind;
  readonly why: string;
}

export interface RetryBudget {
  readonly label: string;
  readonly failure: BudgetFailure;
  /** processing attempts of the failing message */
  readonly attempts: number;
  /** delays between attempts (virtual ms) */
  readonly delaysMs: readonly number[];
  /** from the first publish to the last event of the failing message (virtual ms) */
  readonly timeToFinalMs: number;
  readonly endsIn: Ending;
  /** what became of the failing message (sim/messageOutcome.ts), and its words */
  readonly outcome: MessageOutcome;
  readonly outcomeText: string;
  readonly ops: BrokerOps;
  readonly objects: {
    readonly exchanges: number;
    readonly queues: number;
    readonly bindings: number;
    readonly policies: number;
    readonly total: number;
  };
  /** the names of what has to be declared on the broker */
  readonly declare: {
    readonly exchanges: readonly string[];
    readonly queues: readonly string[];
    readonly policies: readonly string[];
  };
  readonly requires: readonly string[];
  readonly risks: readonly Risk[];
  /** poison: the worst extra latency seen by a healthy message (virtual ms) */
  readonly healthyMaxLatencyMs?: number;
  /** the simulation was cut off (the message never settles) */
  readonly truncated: boolean;
  /** every message's path, the failing one first */
  readonly traces: readonly MessageTrace[];
}

export interface BudgetOptions {
  readonly label?: string;
  /** consumers whose processing counts as an attempt (default: all workers) */
  readonly workConsumers?: readonly string[];
  /** healthy messages published alongside a poison message (default 4) */
  readonly messages?: number;
  /** cut-off for strategies that never give up (default the design's horizon: sim/retryHorizon.ts) */
  readonly maxTimeMs?: number;
  /** cut-off in simulator events, for strategies that loop without time passing (default the simulator's) */
  readonly maxEvents?: number;
  readonly seed?: number;
  /** a cluster node lost for a while (the simulator's NodeLoss): its waits are in the budget's times */
  readonly nodeLoss?: NodeLoss;
}

function failureModel(f: BudgetFailure, poisonBody: string): FailureModel {
  if (f.kind === 'poison') return { kind: 'poison', bodies: [poisonBody] };
  return f;
}

export function computeBudget(design: Design, failure: BudgetFailure, opts: BudgetOptions = {}): RetryBudget {
  const healthy = failure.kind === 'poison' ? Math.max(1, opts.messages ?? 4) : 0;
  const n = 1 + healthy;
  const first = design.publishers[0];
  if (!first) throw new Error('the design has no publisher: nothing to simulate');
  const onlyFirst: Design = { ...design, publishers: [first] };
  const poisonBody = `${first.bodyPrefix ?? first.id}-1`;
  const input = designToSimulation(onlyFirst, {
    messages: n,
    failure: failureModel(failure, poisonBody),
    seed: opts.seed ?? 1,
  });
  const horizon = retryHorizon(design);
  const horizonMs = opts.maxTimeMs ?? horizon.ms;
  const result = simulate({
    ...input,
    maxTimeMs: horizonMs,
    ...(opts.maxEvents !== undefined ? { maxEvents: opts.maxEvents } : {}),
    ...(opts.nodeLoss ? { nodeLoss: opts.nodeLoss } : {}),
  });
  const { traces } = outcomesOfRun(onlyFirst, result, failureModel(failure, poisonBody), opts.workConsumers);
  const failing = traces.find((t) => t.body === poisonBody) ?? traces[0];
  if (!failing) throw new Error('the simulation produced no events for the published message');
  const others = traces.filter((t) => t !== failing);
  const start = result.events.find((e) => e.msgId === failing.msgId)?.t ?? 0;
  const t = design.topology;
  const requires = [
    ...new Set(
      t.exchanges.filter((x) => x.type === 'x-delayed-message' || x.type === 'radlx').map((x) => x.type as string),
    ),
  ];
  return {
    label: opts.label ?? design.name,
    failure,
    attempts: failing.attempts,
    delaysMs: failing.delaysMs,
    timeToFinalMs: failing.endTime - start,
    endsIn: failing.endsIn,
    outcome: failing.outcome,
    outcomeText: describeOutcome(failing.outcome, { topology: design.topology, horizonMs, horizon }),
    ops: failing.ops,
    objects: {
      exchanges: t.exchanges.length,
      queues: t.queues.length,
      bindings: t.bindings.length,
      policies: t.policies?.length ?? 0,
      total: t.exchanges.length + t.queues.length + t.bindings.length + (t.policies?.length ?? 0),
    },
    declare: {
      exchanges: t.exchanges.map((x) => x.name),
      queues: t.queues.map((q) => q.name),
      policies: (t.policies ?? []).map((p) => p.name),
    },
    requires,
    risks: risksOf(
      design,
      failing,
      result.events.filter((e) => e.msgId === failing.msgId),
    ),
    ...(others.length > 0
      ? {
          healthyMaxLatencyMs: Math.max(
            ...others.map((o) => (o.attemptTimes[o.attemptTimes.length - 1] ?? o.endTime) - 0),
          ),
        }
      : {}),
    truncated: result.truncated,
    traces: [failing, ...others],
  };
}

/** The queues where the failing message was requeued and where it was dead-lettered from, as each runs on the design's broker. */
function settledIn(design: Design, events: readonly SimEvent[]) {
  const profile = profileFor(design.profile);
  const t = design.topology;
  const config = (name: string) => {
    const q = t.queues.find((x) => x.name === name);
    return q ? queueConfig(q, t.policies, profile, undefined, t.policyPins) : undefined;
  };
  const of = (kind: 'requeued' | 'dead-lettered') => [
    ...new Set(events.flatMap((e) => (e.kind === kind ? [e.queue] : []))),
  ];
  return { requeuedIn: of('requeued'), deadLetteredFrom: of('dead-lettered'), config };
}

function risksOf(design: Design, tr: MessageTrace, events: readonly SimEvent[]): Risk[] {
  const risks: Risk[] = [];
  const { requeuedIn, deadLetteredFrom, config } = settledIn(design, events);
  const lint = lintDesign(design);
  const has = (id: string): boolean => lint.some((f) => f.id === id);
  const actions = design.consumers.flatMap((c) => {
    const b = c.behaviour;
    const rules =
      b.kind === 'worker'
        ? b.onFailure.map((r) => r.then)
        : b.kind === 'router'
          ? b.rules.map((r) => r.then)
          : b.actions;
    return rules.flatMap((a) => (a.kind === 'retryInProcess' ? [a, a.recover] : [a]));
  });
  if (has('per-message-ttl-head-of-line'))
    risks.push({
      kind: 'head-of-line',
      why: 'different per-message TTLs share a wait queue; a short delay waits behind a longer one',
    });
  if (actions.some((a) => a.kind === 'retryInProcess'))
    risks.push({
      kind: 'head-of-line',
      why: 'in-process retries keep the delivery unacked and the consumer busy during backoff; messages behind it wait',
    });
  // where a requeue puts the message, recorded on 3.10.8 and 4.3.6: a classic queue at its place at the head
  // (conformance classic-requeue-position), a quorum queue at the back (quorum-requeue-to-back, quorum-requeue-with-limit)
  const classicRequeues = requeuedIn.filter((q) => !config(q)?.quorum);
  const quorumRequeues = requeuedIn.filter((q) => config(q)?.quorum);
  if (classicRequeues.length > 0 && tr.delaysMs.every((d) => d === 0))
    risks.push({
      kind: 'head-of-line',
      why: `immediate requeues put a failing message back at its place at the head of ${nameList(classicRequeues)} (a classic queue): it is retried back to back ahead of newer messages`,
    });
  if (quorumRequeues.length > 0)
    risks.push({
      kind: 'reordering',
      why: `a quorum queue puts a requeued message at the back of ${nameList(quorumRequeues)}: newer messages are delivered before its retry`,
    });
  if (tr.ops.deadLetterings > 0 || tr.ops.delayed > 0 || actions.some((a) => a.kind === 'republish'))
    risks.push({
      kind: 'reordering',
      why: 'a retried message leaves the queue and comes back behind messages published after it',
    });
  if (actions.some((a) => a.kind === 'republish'))
    risks.push({
      kind: 'duplicates',
      why: 'publish-then-ack: a consumer that dies between the confirm and the ack leaves two copies',
    });
  if (has('dlx-fanout-redelivers-to-all'))
    risks.push({ kind: 'duplicates', why: 'a fanout dead-letter exchange sends each retry to every bound queue' });
  if (tr.ops.drops > 0 || tr.endsIn.kind === 'dropped')
    risks.push({
      kind: 'loss',
      why: 'the message was dropped by the broker (no DLX, no route, overflow or a dead-letter cycle)',
    });
  if (tr.outcome.kind === 'discarded')
    risks.push({
      kind: 'loss',
      why: 'the application gives up and acks the message: the broker forgets it and nothing keeps it',
    });
  if (design.topology.exchanges.some((x) => x.type === 'x-delayed-message'))
    risks.push({
      kind: 'loss',
      why: 'delayed messages are stored on one node only; they are lost with that node or when the plugin is disabled',
    });
  // at-least-once dead-lettering (a quorum queue with dead-letter-strategy at-least-once and overflow reject-publish) loses nothing
  const atMostOnce = deadLetteredFrom.filter((q) => !config(q)?.atLeastOnce);
  if (atMostOnce.length > 0)
    risks.push({
      kind: 'loss',
      why: `dead-lettering from ${nameList(atMostOnce)} is at-most-once: a dead letter its exchange cannot route, or a target that refuses it, is dropped without a trace (a quorum queue with dead-letter-strategy at-least-once and overflow reject-publish keeps it)`,
    });
  if (tr.endsIn.kind === 'held')
    risks.push({
      kind: 'unbounded',
      why: 'the consumer holds the message unacked and no later multiple settles it: it stays at the consumer, its prefetch slot taken',
    });
  // cut off by the horizon while parked (a TTL with no onward route) is not unbounded: only a message still moving is
  if (isMoving(tr.outcome))
    risks.push({ kind: 'unbounded', why: 'the message never reaches a final outcome: it keeps being retried' });
  if (tr.outcome.kind === 'acked' && tr.outcome.neverEndsFailingAlways)
    risks.push({
      kind: 'unbounded',
      why: 'acked only because the worker stopped failing: a message that fails every time is retried forever',
    });
  return risks;
}

export interface StrategyEntry {
  readonly label: string;
  readonly design: Design;
  readonly workConsumers?: readonly string[];
}

/** Several strategies under one failure model, one row each. */
export function compareStrategies(
  entries: readonly StrategyEntry[],
  failure: BudgetFailure,
  opts: Omit<BudgetOptions, 'label' | 'workConsumers'> = {},
): RetryBudget[] {
  return entries.map((e) =>
    computeBudget(e.design, failure, {
      ...opts,
      label: e.label,
      ...(e.workConsumers ? { workConsumers: e.workConsumers } : {}),
    }),
  );
}

/** A plain-text table of budgets (for the CLI). */
export function formatComparison(rows: readonly RetryBudget[]): string {
  const head = [
    'strategy',
    'attempts',
    'delays',
    'time to outcome',
    'ends in',
    'publishes',
    'dead-letterings',
    'routings',
    'objects',
    'risks',
  ];
  const body = rows.map((r) => [
    r.label,
    String(r.attempts) + (r.truncated ? '+' : ''),
    r.delaysMs.length ? joinCollapsed(r.delaysMs.map(formatMs)) : '-',
    formatMs(r.timeToFinalMs),
    r.outcomeText,
    String(r.ops.publishes),
    String(r.ops.deadLetterings),
    String(r.ops.routings),
    String(r.objects.total),
    [...new Set(r.risks.map((x) => x.kind))].join(', ') || '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export { formatMs };
