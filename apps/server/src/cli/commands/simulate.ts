import {
  computeBudget,
  designToSimulation,
  formatEnding,
  formatMs,
  simulate,
  traceMessages,
  activeQueuesOf,
  markAttemptCap,
  validateDesign,
  type BudgetFailure,
  type ConsumerSpec,
  type Design,
  type PublisherSpec,
  type RetryBudget,
} from '@retry-studio/topology-core';
import { flag, intValue, parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, type CliIo, type LoadedFile } from './context.js';

export const SIMULATE_USAGE =
  'simulate FILE [--fail-first K | --always | --poison] [--messages N] [--json] [--seed S] [--publish EXCHANGE:ROUTING_KEY ...] [--consumer QUEUE=ack|reject|requeue|worker ...]';

/**
 * A definitions file has no publishers or consumers: `--publish` and `--consumer` add them
 * (a `worker` consumer fails by the failure model and rejects, so the queue's DLX path runs).
 */
export function withAdHocActors(design: Design, a: ReturnType<typeof parseArgs>): Design {
  const pubs = (a.flags.get('publish') ?? []).map((spec, i): PublisherSpec => {
    const c = spec.indexOf(':');
    if (c < 0) throw new CliError(`--publish must be EXCHANGE:ROUTING_KEY (use ":KEY" for the default exchange), got ${JSON.stringify(spec)}`, 2);
    return { id: `cli-publisher-${i + 1}`, exchange: spec.slice(0, c), routingKey: spec.slice(c + 1), bodyPrefix: 'msg' };
  });
  const cons = (a.flags.get('consumer') ?? []).map((spec, i): ConsumerSpec => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new CliError(`--consumer must be QUEUE=ACTION[,ACTION...], got ${JSON.stringify(spec)}`, 2);
    const queue = spec.slice(0, eq);
    const acts = spec.slice(eq + 1).split(',');
    if (acts.length === 1 && acts[0] === 'worker') return { id: `cli-worker-${i + 1}`, queue, behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] } };
    for (const x of acts) if (x !== 'ack' && x !== 'reject' && x !== 'requeue') throw new CliError(`--consumer actions are ack, reject, requeue (or worker), got ${JSON.stringify(x)}`, 2);
    return { id: `cli-consumer-${i + 1}`, queue, behaviour: { kind: 'script', actions: acts.map((k) => ({ kind: k as 'ack' | 'reject' | 'requeue' })) } };
  });
  if (pubs.length === 0 && cons.length === 0) return design;
  const next: Design = { ...design, publishers: [...design.publishers, ...pubs], consumers: [...design.consumers, ...cons] };
  const v = validateDesign(next);
  if (!v.ok) throw new CliError(`--publish/--consumer: ${v.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
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
  const a = parseArgs(argv, { values: ['fail-first', 'messages', 'seed', 'vhost', 'publish', 'consumer'], switches: ['json', 'always', 'poison'] });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${SIMULATE_USAGE}`, 2);
  const failure = failureFromArgs(a);
  const messages = intValue(a, 'messages', 1, 100000) ?? 1;
  const seed = intValue(a, 'seed', 0, 2 ** 31) ?? 1;
  // a whole-broker file is simulated per vhost: each vhost where the actors fit
  const all = await loadFileVhosts(io, file, { vhost: value(a, 'vhost') });
  if (all.length === 1) return simulateDoc(all[0]!, a, io, file, { failure, messages, seed });
  const runnable = all.filter((d) => d.design.publishers.length > 0 || (a.flags.get('publish') ?? []).length > 0);
  let code = 0;
  let ran = 0;
  for (const d of runnable) {
    let design;
    try {
      design = withAdHocActors(d.design, a);
    } catch (e) {
      io.err(`vhost ${JSON.stringify(d.vhost)}: not simulated: ${(e as Error).message}\n`);
      continue;
    }
    io.out(`== vhost ${JSON.stringify(d.vhost)}\n`);
    code = Math.max(code, await simulateDoc({ ...d, design }, a, io, `${file} vhost ${JSON.stringify(d.vhost)}`, { failure, messages, seed }, false));
    ran++;
  }
  if (ran === 0)
    throw new CliError(
      `${file}: nothing to simulate in any of its ${all.length} vhosts (${all.map((d) => JSON.stringify(d.vhost)).join(', ')}): a definitions file has no publishers or consumers. Add them with --publish EXCHANGE:KEY [--consumer QUEUE=worker], or pick a vhost with --vhost`,
    );
  return code;
}

async function simulateDoc(
  loaded: LoadedFile,
  a: ReturnType<typeof parseArgs>,
  io: CliIo,
  file: string,
  { failure, messages, seed }: { failure: BudgetFailure; messages: number; seed: number },
  addActors = true,
): Promise<number> {
  const doc = { ...loaded, design: addActors ? withAdHocActors(loaded.design, a) : loaded.design };
  if (doc.design.publishers.length === 0)
    throw new CliError(
      `${file}: ${doc.kind === 'definitions' ? 'a definitions file has no publishers or consumers' : 'the design has no publisher'}: nothing to simulate. Add them with --publish EXCHANGE:KEY [--consumer QUEUE=worker], or start from a template (pnpm cli generate ID)`,
    );
  const budget = computeBudget(doc.design, failure, { seed, messages: Math.max(1, messages - 1) });
  // every message's path, with the failure model applied to all of them
  const model = failure.kind === 'poison' ? { kind: 'poison' as const, bodies: [budget.traces[0]!.body] } : failure;
  const result = simulate({ ...designToSimulation(doc.design, { messages, failure: model, seed }), maxTimeMs: 24 * 3600 * 1000 });
  const workers = doc.design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  // a fail-first-K ack that only the cap gave is reported as the cap, not as processed
  const traces = markAttemptCap(doc.design, model, traceMessages(result, { activeQueues: activeQueuesOf(doc.design), ...(workers.length > 0 ? { workConsumers: workers } : {}) }));
  if (flag(a, 'json')) {
    const { traces: _t, ...summary } = budget;
    void _t;
    io.out(JSON.stringify({ file, failure, budget: summary, messages: traces, truncated: result.truncated, endTimeMs: result.endTime }, null, 2) + '\n');
    return 0;
  }
  io.out(formatBudget(budget));
  io.out(`\nmessages (${traces.length}):\n`);
  for (const t of traces)
    io.out(
      `  ${t.body}: ${t.path.join(' -> ') || '(never enqueued)'}\n    attempts ${t.attempts}${t.attemptTimes.length ? ` at ${t.attemptTimes.map(formatMs).join(', ')}` : ''}; ends: ${formatEnding(t.endsIn)}\n`,
    );
  if (result.truncated) io.out('  (simulation cut off after 24 h of virtual time: some messages never settle)\n');
  return 0;
}

export function formatBudget(b: RetryBudget): string {
  const f = b.failure.kind === 'failFirst' ? `fails the first ${b.failure.n} attempt(s)` : b.failure.kind === 'always' ? 'always fails' : 'one poison message among healthy ones';
  const lines = [
    `retry budget: ${b.label} (${f})`,
    `  attempts:         ${b.attempts}${b.truncated ? ' (and counting: never settles)' : ''}`,
    `  delays:           ${b.delaysMs.length ? b.delaysMs.map(formatMs).join(', ') : 'none'}`,
    `  time to outcome:  ${formatMs(b.timeToFinalMs)}`,
    `  ends in:          ${formatEnding(b.endsIn)}`,
    `  broker ops:       ${b.ops.publishes} publish(es), ${b.ops.deadLetterings} dead-lettering(s), ${b.ops.routings} routing(s), ${b.ops.enqueues} enqueue(s), ${b.ops.deliveries} deliveries`,
    `  objects:          ${b.objects.exchanges} exchanges, ${b.objects.queues} queues, ${b.objects.bindings} bindings${b.objects.policies ? `, ${b.objects.policies} policies` : ''}`,
    ...(b.requires.length ? [`  requires:         ${b.requires.join(', ')}`] : []),
    ...(b.healthyMaxLatencyMs !== undefined ? [`  healthy messages: all done by ${formatMs(b.healthyMaxLatencyMs)}`] : []),
    `  risks:`,
    ...(b.risks.length ? b.risks.map((r) => `    - ${r.kind}: ${r.why}`) : ['    none found']),
  ];
  return lines.join('\n') + '\n';
}
