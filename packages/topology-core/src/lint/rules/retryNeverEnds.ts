/**
 * Proves every retry path ends: one message per publisher through a bounded simulation, once
 * with workers that always fail and once with workers that fail the first K attempts. A message
 * that is neither parked, dropped nor acked by the bound retries forever; the finding names the
 * queue it loops through and the counter that was meant to stop it, with the value it really has.
 */
import { defineRule } from '../defineRule.js';
import type { Condition, ConsumerSpec, Counter, FailureModel, Rule } from '../../model/consumer.js';
import type { SimEvent, SimEventOf } from '../../sim/events.js';
import { consumerNodeId, queueNodeId, type NodeId } from '../../model/nodeIds.js';
import { evalCounter } from '../../behaviour/evaluate.js';
import { boundedRetryRuns, neverEnds, type RetryRun } from '../../sim/retryEnding.js';
import type { Design } from '../../model/design.js';
import type { LintFinding } from '../types.js';

const FAIL_FIRST_K = 2;
const RUNS: readonly { readonly failure: FailureModel; readonly says: string }[] = [
  { failure: { kind: 'always' }, says: 'always fails' },
  { failure: { kind: 'failFirst', n: FAIL_FIRST_K }, says: `fails its first ${FAIL_FIRST_K} attempts` },
];

/** The consumer and queue that handled the message most: where it loops. */
function loopOf(events: readonly SimEvent[]): SimEventOf<'delivered'> | undefined {
  const counts = new Map<string, number>();
  let best: SimEventOf<'delivered'> | undefined;
  let bestN = 0;
  for (const e of events) {
    if (e.kind !== 'delivered') continue;
    const k = `${e.consumer}\u0000${e.queue}`;
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    // the latest delivery of the busiest pair: its x-death shows what the counters read
    if (n >= bestN) [best, bestN] = [e, n];
  }
  return best;
}

function counterText(c: Counter): string {
  switch (c.kind) {
    case 'attempt':
      return "the consumer's attempt count";
    case 'header':
      return `the header ${c.name}`;
    case 'deliveryCount':
      return 'x-delivery-count';
    case 'held':
      return 'the deliveries the consumer holds';
    case 'deathCount':
      return `the x-death count for ${c.queue !== undefined ? `queue ${c.queue}` : 'any queue'}${c.reason !== undefined ? `, reason ${c.reason}` : ''}`;
  }
}

function countersOf(c: ConsumerSpec): Counter[] {
  const b = c.behaviour;
  const rules: readonly Rule[] = b.kind === 'worker' ? b.onFailure : b.kind === 'router' ? b.rules : [];
  return rules.flatMap((r) => (r.when && hasCounter(r.when) ? [r.when.counter] : []));
}
const hasCounter = (w: Condition): w is Extract<Condition, { counter: Counter }> => w.kind === 'lt' || w.kind === 'gte';

function why(
  c: ConsumerSpec | undefined,
  last: SimEventOf<'delivered'>,
  attempt: number,
  events: readonly SimEvent[],
): string {
  const processed = events.filter((e): e is SimEventOf<'processed'> => e.kind === 'processed');
  if (processed[processed.length - 1]?.ok)
    return `${last.consumer} processes it successfully and its success action sends it around again`;
  const counters = c ? countersOf(c) : [];
  if (counters.length === 0) return `no rule of ${last.consumer} limits the retries`;
  const view = {
    body: last.body,
    headers: last.headers,
    xDeath: last.xDeath,
    redelivered: last.redelivered,
    routingKey: last.routingKey,
    exchange: last.exchange,
    attempt,
  };
  const carried = (last.xDeath ?? []).map((x) => `(${x.queue}, ${x.reason}) x ${x.count}`).join(', ') || 'none';
  const parts = counters.map((k) => `${counterText(k)} reads ${evalCounter(k, view)}`);
  return `the limit of ${last.consumer} never trips: ${parts.join('; ')} (x-death entries the message carries: ${carried})`;
}

/** A design the simulator cannot run yet (half edited) is validation's business, not this rule's. */
function runs(design: Design, failure: FailureModel): RetryRun[] {
  try {
    return boundedRetryRuns(design, failure);
  } catch {
    return [];
  }
}

export const retryNeverEnds = defineRule({
  id: 'retry-never-ends',
  title: 'Retry that never ends',
  description:
    'A bounded simulation (always failing, and failing the first K attempts) finds a message that is never parked, dropped nor acked: the retry path does not end.',
  level: 'error',
  help: 'Make the counter that should stop the loop rise (x-death of the right queue, or a header the consumer sets), or add a maximum.',
  check: (ctx, _flow, say) => {
    if (!ctx.consumersKnown || ctx.design.publishers.length === 0) return [];
    const out: LintFinding[] = [];
    const reported = new Set<string>();
    for (const { failure, says } of RUNS)
      for (const run of runs(ctx.design, failure)) {
        if (!neverEnds(run)) continue;
        const last = loopOf(run.events);
        const queue = last?.queue ?? run.trace.path[run.trace.path.length - 1];
        if (queue === undefined || reported.has(queue)) continue;
        reported.add(queue);
        const consumer = ctx.design.consumers.find((c) => c.id === last?.consumer);
        const objects: NodeId[] = [queueNodeId(queue), ...(consumer ? [consumerNodeId(consumer.id)] : [])];
        out.push(
          say(
            'error',
            `${queue}: a message that ${says} is never parked, dropped or acked (${run.trace.attempts} attempts in a bounded run, and counting): ${last ? why(consumer, last, run.trace.attempts, run.events) : 'it keeps moving between queues'}.`,
            objects,
            'Make the limit read a counter that rises on this path: an x-death count for this queue and the reason it dies with here (rejected, expired), an x-retries header the republish increments, or the attempt count.',
          ),
        );
      }
    return out;
  },
});
