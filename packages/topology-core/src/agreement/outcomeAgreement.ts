/**
 * Does every place that states a message's outcome state the same one? For one design, profile
 * and failure model: the budget (and compare, which prints its rows), simulate's run (its text and
 * JSON), the browser's run (the timeline lanes, the message detail and the Inspect summary read
 * it), the upgrade check's behaviour diff, and the events themselves (an acked message was acked,
 * a parked one is in its queue when the run ends, ...). And does each lint retry rule agree with
 * the simulation (retry-never-ends fires exactly when a message that fails is still moving), and
 * a template's stated fate with the budget? A disagreement names the case, the two places and
 * what each said. The CI check runs it over every template and every corpus file.
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { simulate } from '../sim/simulate.js';
import { outcomesOfRun } from '../sim/runOutcomes.js';
import { outcomesOfEvents } from '../sim/eventOutcomes.js';
import { describeOutcome } from '../sim/outcomeText.js';
import { isMoving, type MessageOutcome } from '../sim/messageOutcome.js';
import { retryHorizon } from '../sim/retryHorizon.js';
import type { SimulationResult } from '../sim/types.js';
import { BUDGET_HORIZON_MS, computeBudget, type BudgetFailure } from '../budget/budget.js';
import { fateOf } from '../upgrade/behaviourDiff.js';
import { lintDesign } from '../lint/lintDesign.js';
import { statedFate } from '../templates/statedFate.js';
import { eventTruth } from './eventTruth.js';

export interface Disagreement {
  /** template/file, profile, failure model, message */
  readonly case: string;
  readonly places: readonly [string, string];
  readonly said: readonly [string, string];
}

/** The shortest horizon simulate and the budget run to (virtual ms); a design's own is sim/retryHorizon.ts. */
export const HORIZON_MS = BUDGET_HORIZON_MS;
/** the browser's event bound (apps/web sim/runSimulation) */
export const WEB_MAX_EVENTS = 40_000;

export interface AgreementOptions {
  /** names the case in a disagreement */
  readonly label: string;
  /** an event bound for every run (the check stays lean: a loop that never ends shows it within it) */
  readonly maxEvents: number;
  /** healthy messages beside a poison one (the budget's default) */
  readonly healthy?: number;
}

export const failureLabel = (f: FailureModel): string =>
  f.kind === 'failFirst'
    ? `fail-first ${f.n}`
    : f.kind === 'percent'
      ? `${f.percent}% (seed 1)`
      : f.kind === 'poison'
        ? 'poison'
        : f.kind;

const budgetFailure = (f: FailureModel): BudgetFailure | undefined =>
  f.kind === 'always' ? f : f.kind === 'failFirst' ? f : f.kind === 'poison' ? { kind: 'poison' } : undefined;

/** Outcomes agree when they are equal; two `moving` ones when they loop through the same queues (their counts depend on each run's bound). */
export function sameOutcome(a: MessageOutcome, b: MessageOutcome): boolean {
  if (a.kind === 'moving' && b.kind === 'moving')
    return [...new Set(a.cycle)].sort().join() === [...new Set(b.cycle)].sort().join();
  return JSON.stringify(a) === JSON.stringify(b);
}

const show = (o: MessageOutcome, text?: string): string => `${text ?? ''} ${JSON.stringify(o)}`.trim();

function run(
  design: Design,
  failure: FailureModel,
  messages: number,
  bound: { maxEvents: number; maxTimeMs?: number },
): { result: SimulationResult; byMsg: ReadonlyMap<string, MessageOutcome> } {
  const input = designToSimulation(design, { messages, failure, seed: 1 });
  const result = simulate({
    ...input,
    maxEvents: bound.maxEvents,
    ...(bound.maxTimeMs !== undefined ? { maxTimeMs: bound.maxTimeMs } : {}),
  });
  return { result, byMsg: outcomesOfRun(design, result, failure).byMsg };
}

/** One publisher's message under one failure model on the design's profile: every place, the same outcome. */
export function outcomeDisagreements(design: Design, failure: FailureModel, opts: AgreementOptions): Disagreement[] {
  const out: Disagreement[] = [];
  const p = design.publishers[0];
  if (!p) return out;
  const one: Design = { ...design, publishers: [p] };
  const profile = design.profile ?? '3.10';
  const at = (msg: string): string => `${opts.label}, profile ${profile}, ${failureLabel(failure)}, message ${msg}`;
  const healthy = failure.kind === 'poison' ? (opts.healthy ?? 4) : 0;
  const failingBody = `${p.bodyPrefix ?? p.id}-1`;
  const model: FailureModel = failure.kind === 'poison' ? { kind: 'poison', bodies: [failingBody] } : failure;
  const topology = design.topology;
  // every place runs to the design's horizon (its longest TTL chain: sim/retryHorizon.ts)
  const horizon = retryHorizon(one);
  const cli = run(one, model, 1 + healthy, { maxEvents: opts.maxEvents, maxTimeMs: horizon.ms });
  const web = run(one, model, 1 + healthy, {
    maxEvents: Math.min(WEB_MAX_EVENTS, opts.maxEvents),
    maxTimeMs: horizon.ms,
  });
  const liveByMsg = outcomesOfEvents(one, cli.result.events, { running: cli.result.truncated, failure: model }).byMsg;
  for (const [msg, o] of cli.byMsg) {
    const w = web.byMsg.get(msg);
    if (w && !sameOutcome(o, w))
      out.push({
        case: at(msg),
        places: ['simulate', 'web timeline'],
        said: [show(o, describeOutcome(o, { topology, horizon })), show(w, describeOutcome(w, { topology, horizon }))],
      });
    // the live trace's lanes read the events alone (where each copy is, counted from them): the same outcome
    const live = liveByMsg.get(msg);
    if (live && !sameOutcome(o, live))
      out.push({
        case: at(msg),
        places: ['simulate', 'live lane (events alone)'],
        said: [
          show(o, describeOutcome(o, { topology, horizon })),
          show(live, describeOutcome(live, { topology, horizon })),
        ],
      });
    for (const wrong of eventTruth(cli.result, msg, o))
      out.push({ case: at(msg), places: ['simulate', "the run's events"], said: [show(o), wrong] });
  }
  const bf = budgetFailure(failure);
  if (!bf) return out;
  const failingMsg = `${p.id}-1`;
  const budget = computeBudget(one, bf, { maxEvents: opts.maxEvents, ...(healthy ? { messages: healthy } : {}) });
  const sim = cli.byMsg.get(failingMsg);
  if (sim && !sameOutcome(budget.outcome, sim))
    out.push({
      case: at(failingMsg),
      places: ['budget', 'simulate'],
      said: [show(budget.outcome, budget.outcomeText), show(sim, describeOutcome(sim, { topology, horizon }))],
    });
  // the horizon covers every wait: a message the horizon (not the event bound) cut off mid-wait was cut too soon
  if (budget.outcome.kind === 'moving' && budget.outcome.waiting && budget.outcome.atMs >= horizon.ms && !horizon.cut)
    out.push({
      case: at(failingMsg),
      places: ['horizon', 'budget'],
      said: [
        `${horizon.ms} ms, the TTL chain ${horizon.chain.join(' → ')} (${horizon.chainMs} ms)`,
        budget.outcomeText,
      ],
    });
  const upgrade = fateOf(one, profile, bf, { maxEvents: opts.maxEvents });
  if (!sameOutcome(budget.outcome, upgrade.outcome))
    out.push({
      case: at(failingMsg),
      places: ['budget', 'upgrade check'],
      said: [show(budget.outcome, budget.outcomeText), show(upgrade.outcome, upgrade.endsIn)],
    });
  return out;
}

/** The lint rules that say a failing message never comes to an end. */
export const NEVER_ENDS_RULES: readonly string[] = [
  'retry-never-ends',
  'dead-letter-cycle-unbounded',
  'nack-never-reaches-delivery-limit',
];

/**
 * Per design and profile: a rule of NEVER_ENDS_RULES (retry-never-ends, ...) fires exactly when, for some publisher, the message
 * that always fails (or fails its first 2: a success path that loops) is still moving in the
 * budget's run; a template's stated fate is the budget's always-failing outcome.
 */
export function ruleDisagreements(
  design: Design,
  opts: AgreementOptions & { readonly linted?: Design },
): Disagreement[] {
  const out: Disagreement[] = [];
  const profile: BrokerProfileId = design.profile ?? '3.10';
  const at = `${opts.label}, profile ${profile}`;
  // what lint says of the file as the user gave it (a definitions file: no actors, the rules assume them)
  const fired = lintDesign(opts.linted ? { ...opts.linted, profile } : design)
    // an `info` speaks of another version (nack-never-reaches-delivery-limit on 4.0-4.2: "from 4.3 ..."), not of this run
    .filter((f) => NEVER_ENDS_RULES.includes(f.id) && f.severity !== 'info');
  const moving: string[] = [];
  for (const p of design.publishers)
    for (const failure of [{ kind: 'always' }, { kind: 'failFirst', n: 2 }] as const) {
      const b = computeBudget({ ...design, publishers: [p] }, failure, { maxEvents: opts.maxEvents });
      if (isMoving(b.outcome)) moving.push(`${p.id} (${failureLabel(failure)}): ${b.outcomeText}`);
      if (failure.kind === 'always' && p === design.publishers[0] && design.origin?.template) {
        const stated = statedFate(design);
        if (stated && !sameOutcome(stated.outcome, b.outcome))
          out.push({
            case: `${at}, always, message ${p.id}-1`,
            places: ['template explanation', 'budget'],
            said: [stated.sentence, show(b.outcome, b.outcomeText)],
          });
      }
    }
  if (fired.length > 0 !== moving.length > 0)
    out.push({
      case: `${at}, always / fail-first 2`,
      places: [`lint ${NEVER_ENDS_RULES.join(' / ')}`, 'budget'],
      said: [
        fired.length ? fired.map((f) => `${f.id}: ${f.message}`).join(' | ') : 'none fires',
        moving.length ? moving.join(' | ') : 'every message comes to an end',
      ],
    });
  return out;
}
