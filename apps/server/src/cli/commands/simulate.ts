import { computeBudget, formatMs, type BudgetFailure, type RetryBudget } from '@retry-studio/topology-core/budget';
import {
  policyTies,
  validateDesign,
  type ConsumerSpec,
  type Design,
  type PublisherSpec,
} from '@retry-studio/topology-core/model';
import {
  describeOutcome,
  designToSimulation,
  isMoving,
  outcomesOfRun,
  BASE_HORIZON_MS,
  retryHorizon,
  simulate,
  type MessageTrace,
  type OutcomeContext,
} from '@retry-studio/topology-core/sim';
import { foldRuns, formatCount, formatRuns } from '@retry-studio/topology-core/text';
import { flag, intValue, parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, type CliIo, type LoadedFile } from './context.js';
import { withAssumedActors } from './assumedActors.js';
import { formatJourneys } from './journeys.js';
import { answered } from '../exitCodes.js';

export const SIMULATE_USAGE =
  'simulate FILE [--fail-first K | --always | --poison] [--messages N] [--json] [--seed S] [--publish EXCHANGE:ROUTING_KEY ...] [--consumer QUEUE=ack|reject|requeue|worker ...]';

/**
 * A definitions file has no publishers or consumers: `--publish` and `--consumer` add them
 * (a `worker` consumer fails by the failure model and rejects, so the queue's DLX path runs).
 */
export function withAdHocActors(design: Design, a: ReturnType<typeof parseArgs>): Design {
  const pubs = (a.flags.get('publish') ?? []).map((spec, i): PublisherSpec => {
    const c = spec.indexOf(':');
    if (c < 0)
      throw new CliError(
        `--publish must be EXCHANGE:ROUTING_KEY (use ":KEY" for the default exchange), got ${JSON.stringify(spec)}`,
        2,
      );
    return {
      id: `cli-publisher-${i + 1}`,
      exchange: spec.slice(0, c),
      routingKey: spec.slice(c + 1),
      bodyPrefix: 'msg',
    };
  });
  const cons = (a.flags.get('consumer') ?? []).map((spec, i): ConsumerSpec => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new CliError(`--consumer must be QUEUE=ACTION[,ACTION...], got ${JSON.stringify(spec)}`, 2);
    const queue = spec.slice(0, eq);
    const acts = spec.slice(eq + 1).split(',');
    if (acts.length === 1 && acts[0] === 'worker')
      return {
        id: `cli-worker-${i + 1}`,
        queue,
        behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] },
      };
    for (const x of acts)
      if (x !== 'ack' && x !== 'reject' && x !== 'requeue')
        throw new CliError(`--consumer actions are ack, reject, requeue (or worker), got ${JSON.stringify(x)}`, 2);
    return {
      id: `cli-consumer-${i + 1}`,
      queue,
      behaviour: { kind: 'script', actions: acts.map((k) => ({ kind: k as 'ack' | 'reject' | 'requeue' })) },
    };
  });
  if (pubs.length === 0 && cons.length === 0) return design;
  const next: Design = {
    ...design,
    publishers: [...design.publishers, ...pubs],
    consumers: [...design.consumers, ...cons],
  };
  const v = validateDesign(next);
  if (!v.ok)
    throw new CliError(`--publish/--consumer: ${v.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, 2);
  return next;
}

export function failureFromArgs(a: ReturnType<typeof parseArgs>): BudgetFailure {
  const k = intValue(a, 'fail-first', 0, 1000);
  const chosen = [k !== undefined, flag(a, 'always'), flag(a, 'poison')].filter(Boolean).length;
  if (chosen > 1) throw new CliError('choose one of --fail-first K, --always, --poison', 2);
  if (k !== undefined) return { kind: 'failFirst', n: k };
  if (flag(a, 'poison')) return { kind: 'poison' };
  return { kind: 'always' };
}

export async function simulateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: ['fail-first', 'messages', 'seed', 'vhost', 'publish', 'consumer'],
    switches: ['json', 'always', 'poison'],
  });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${SIMULATE_USAGE}`, 2);
  const failure = failureFromArgs(a);
  const messages = intValue(a, 'messages', 1, 100000) ?? 1;
  const seed = intValue(a, 'seed', 0, 2 ** 31) ?? 1;
  // a whole-broker file is simulated per vhost: each vhost where the actors fit
  const all = await loadFileVhosts(io, file, { vhost: value(a, 'vhost') });
  if (all.length === 1) return simulateDoc(all[0]!, a, io, file, { failure, messages, seed });
  const adHoc = (a.flags.get('publish') ?? []).length > 0 || (a.flags.get('consumer') ?? []).length > 0;
  const runnable = all.filter(
    (d) => d.design.publishers.length > 0 || adHoc || withAssumedActors(d.design).note !== undefined,
  );
  let code = 0;
  let ran = 0;
  for (const d of runnable) {
    let design;
    try {
      design = adHoc ? withAdHocActors(d.design, a) : assumed(d.design, io, `vhost ${JSON.stringify(d.vhost)}: `);
    } catch (e) {
      io.err(`vhost ${JSON.stringify(d.vhost)}: not simulated: ${(e as Error).message}\n`);
      continue;
    }
    io.out(`== vhost ${JSON.stringify(d.vhost)}\n`);
    code = Math.max(
      code,
      await simulateDoc(
        { ...d, design },
        a,
        io,
        `${file} vhost ${JSON.stringify(d.vhost)}`,
        { failure, messages, seed },
        false,
      ),
    );
    ran++;
  }
  if (ran === 0)
    throw new CliError(
      `${file}: nothing to simulate in any of its ${all.length} vhosts (${all.map((d) => JSON.stringify(d.vhost)).join(', ')}): a definitions file has no publishers or consumers. Add them with --publish EXCHANGE:KEY [--consumer QUEUE=worker], or pick a vhost with --vhost`,
      2,
    );
  return code;
}

/** Why a file has nothing to simulate: a definitions file with no queue says what it holds instead (policies for queues the applications declare). */
function whyNothingToSimulate(doc: LoadedFile): string {
  if (doc.kind !== 'definitions') return 'the design has no publisher';
  const t = doc.design.topology;
  if (t.queues.length > 0) return 'a definitions file has no publishers or consumers';
  const held = [
    `${t.policies?.length ?? 0} polic${t.policies?.length === 1 ? 'y' : 'ies'}`,
    `${t.exchanges.length} exchange(s)`,
  ];
  return `the definitions declare no queue (they hold ${held.join(' and ')}: policies for queues the applications declare), so no publisher or consumer can be assumed`;
}

/** a definitions file's design with the consumers and publishers lint assumes, said on stderr */
function assumed(design: Design, io: CliIo, label: string): Design {
  const r = withAssumedActors(design);
  if (r.note) io.err(`${label}${r.note}\n`);
  return r.design;
}

async function simulateDoc(
  loaded: LoadedFile,
  a: ReturnType<typeof parseArgs>,
  io: CliIo,
  file: string,
  { failure, messages, seed }: { failure: BudgetFailure; messages: number; seed: number },
  addActors = true,
): Promise<number> {
  const adHoc = (a.flags.get('publish') ?? []).length > 0 || (a.flags.get('consumer') ?? []).length > 0;
  const design = addActors
    ? adHoc || loaded.kind !== 'definitions'
      ? withAdHocActors(loaded.design, a)
      : assumed(loaded.design, io, '')
    : loaded.design;
  const doc = { ...loaded, design };
  if (doc.design.publishers.length === 0)
    throw new CliError(
      `${file}: ${whyNothingToSimulate(doc)}: nothing to simulate. Add them with --publish EXCHANGE:KEY [--consumer QUEUE=worker], or start from a template (pnpm cli generate ID)`,
      2,
    );
  const budget = computeBudget(doc.design, failure, { seed, messages: Math.max(1, messages - 1) });
  // every message's path, with the failure model applied to all of them
  const model = failure.kind === 'poison' ? { kind: 'poison' as const, bodies: [budget.traces[0]!.body] } : failure;
  // the design's horizon: its longest TTL chain and a day (sim/retryHorizon.ts), as the budget's run
  const horizon = retryHorizon(doc.design);
  const result = simulate({
    ...designToSimulation(doc.design, { messages, failure: model, seed }),
    maxTimeMs: horizon.ms,
  });
  // each message's outcome, read the one way every place reads it
  const { traces } = outcomesOfRun(doc.design, result, model);
  const topology = doc.design.topology;
  const said: OutcomeContext = { topology, horizon };
  const ties = policyTies(topology);
  // a retry that never ends is bad news (exit 1: cli/exitCodes.ts); a message waiting out a TTL is not
  const neverEnds = answered(traces.some((t) => isMoving(t.outcome)));
  if (flag(a, 'json')) {
    const { traces: _t, delaysMs, ...summary } = budget;
    void _t;
    io.out(
      JSON.stringify(
        {
          file,
          failure,
          budget: { ...summary, ...bounded('delaysMs', delaysMs), endsInText: budget.outcomeText },
          policyTies: ties.map((t) => ({
            queues: t.queues,
            policies: t.policies,
            assumed: t.assumed,
            pinned: t.pinned,
          })),
          messages: traces.map((t) => jsonTrace(t, said)),
          truncated: result.truncated,
          endTimeMs: result.endTime,
          horizon: { ms: horizon.ms, chainMs: horizon.chainMs, chain: horizon.chain, cut: horizon.cut },
        },
        null,
        2,
      ) + '\n',
    );
    return neverEnds;
  }
  io.out(formatBudget(budget));
  for (const t of ties)
    io.out(
      `policy tie: ${t.policies.join(', ')} (priority ${t.priority}) match ${t.queues.length > 5 ? `${t.queues.slice(0, 5).join(', ')} and ${t.queues.length - 5} more` : t.queues.join(', ')}: ${t.pinned ? `the broker applies ${t.assumed} (read from the vhost)` : `RabbitMQ's choice is unspecified; simulated with ${t.assumed}`}\n`,
    );
  // messages with the same journey are told once, copies of one shape too (journeys.ts)
  io.out(formatJourneys(traces, said));
  const stopped = formatMs(result.stoppedAt ?? result.endTime);
  if (traces.some((t) => isMoving(t.outcome)))
    io.out(`  (simulation cut off after ${stopped} of virtual time: some messages never settle)\n`);
  else if (result.truncated)
    io.out(
      `  (simulation stopped after ${stopped} of virtual time with messages still waiting out a TTL: waits, not loops)\n`,
    );
  if (horizon.ms > BASE_HORIZON_MS || horizon.cut)
    io.out(
      `  (horizon ${formatMs(horizon.ms)}: the longest TTL chain, ${horizon.chain.join(' -> ')}, takes ${formatMs(horizon.chainMs)}${horizon.cut ? '; the run stops before its end' : ''})\n`,
    );
  return neverEnds;
}

/** lists longer than this are folded into runs in --json (a looping message stays bounded) */
const MAX_LIST = 200;

/**
 * `key` as is when short, else folded into runs (`keyRuns`) with its length; a list that does not
 * repeat (attempt times rise) keeps its first and last entries (`keyHead`, `keyTail`).
 */
function bounded<T>(key: string, items: readonly T[]): Record<string, unknown> {
  if (items.length <= MAX_LIST) return { [key]: items };
  const runs = foldRuns(items);
  if (runs.reduce((n, r) => n + r.items.length, 0) <= MAX_LIST)
    return { [`${key}Runs`]: runs, [`${key}Length`]: items.length };
  return {
    [`${key}Head`]: items.slice(0, MAX_LIST / 2),
    [`${key}Tail`]: items.slice(-MAX_LIST / 2),
    [`${key}Length`]: items.length,
  };
}

function jsonTrace(t: MessageTrace, said: OutcomeContext): Record<string, unknown> {
  const { path, attemptTimes, delaysMs, ...rest } = t;
  return {
    ...rest,
    endsInText: describeOutcome(t.outcome, said),
    ...bounded('path', path),
    ...bounded('attemptTimes', attemptTimes),
    ...bounded('delaysMs', delaysMs),
  };
}

export function formatBudget(b: RetryBudget): string {
  const f =
    b.failure.kind === 'failFirst'
      ? `fails the first ${b.failure.n} attempt(s)`
      : b.failure.kind === 'always'
        ? 'always fails'
        : 'one poison message among healthy ones';
  const lines = [
    `retry budget: ${b.label} (${f})`,
    `  attempts:         ${formatCount(b.attempts)}${isMoving(b.outcome) ? ' (and counting: never settles)' : ''}`,
    `  delays:           ${b.delaysMs.length ? formatRuns(b.delaysMs.map(formatMs), ', ') : 'none'}`,
    `  time to outcome:  ${formatMs(b.timeToFinalMs)}`,
    `  ends in:          ${b.outcomeText}`,
    `  broker ops:       ${b.ops.publishes} publish(es), ${b.ops.deadLetterings} dead-lettering(s), ${b.ops.routings} routing(s), ${b.ops.enqueues} enqueue(s), ${b.ops.deliveries} deliveries`,
    `  objects:          ${b.objects.exchanges} exchanges, ${b.objects.queues} queues, ${b.objects.bindings} bindings${b.objects.policies ? `, ${b.objects.policies} policies` : ''}`,
    ...(b.requires.length ? [`  requires:         ${b.requires.join(', ')}`] : []),
    ...(b.healthyMaxLatencyMs !== undefined
      ? [`  healthy messages: all done by ${formatMs(b.healthyMaxLatencyMs)}`]
      : []),
    `  risks:`,
    ...(b.risks.length ? b.risks.map((r) => `    - ${r.kind}: ${r.why}`) : ['    none found']),
  ];
  return lines.join('\n') + '\n';
}
