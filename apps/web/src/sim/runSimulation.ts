/** Runs the core simulator on a design (the web never simulates anything itself). */
import { describeIssue, validateDesign, type Design, type FailureModel } from '@retry-studio/topology-core/model';
import { activeQueuesOf, designToSimulation, markAttemptCap, simulate, traceMessages, type NodeLoss, type SimEvent } from '@retry-studio/topology-core/sim';

export interface RunOptions {
  messages: number;
  failure: FailureModel;
  seed: number;
  /** stop after this many events (keeps the browser responsive) */
  maxEvents?: number;
  /** a cluster node lost for a while (the simulation bar's "node down") */
  nodeLoss?: NodeLoss;
}

/** `capped`: messages acked only because the fail-first worker stopped failing; failing always they would retry forever */
export type RunResult = { events: SimEvent[]; truncated: boolean; endTime: number; capped: string[] } | { error: string };

/**
 * Test publishes come from the run's steps; the canvas draws them leaving their publisher node,
 * so a step publish whose message id is `${publisherId}-${n}` is attributed to that publisher.
 */
export function attributePublishers(events: readonly SimEvent[], publisherIds: readonly string[]): SimEvent[] {
  const ids = [...publisherIds].sort((a, b) => b.length - a.length);
  return events.map((e) => {
    if (e.kind !== 'published' || e.origin.kind !== 'step') return e;
    const id = ids.find((p) => e.msgId.startsWith(`${p}-`));
    return id ? { ...e, origin: { kind: 'publisher' as const, id } } : e;
  });
}

export function runDesignSimulation(design: Design, opts: RunOptions): RunResult {
  if (!design.publishers.length) return { error: 'Add a publisher: the simulation publishes its test messages through it.' };
  const v = validateDesign(design);
  if (!v.ok) return { error: `Fix the design first: ${v.errors.slice(0, 3).map((e) => describeIssue(design, e)).join('; ')}` };
  try {
    const input = designToSimulation(design, { messages: opts.messages, failure: opts.failure, seed: opts.seed });
    const r = simulate({ ...input, maxEvents: opts.maxEvents ?? 40_000, ...(opts.nodeLoss ? { nodeLoss: opts.nodeLoss } : {}) });
    const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
    const capped =
      opts.failure.kind === 'failFirst'
        ? markAttemptCap(design, opts.failure, traceMessages(r, { activeQueues: activeQueuesOf(design), ...(workers.length > 0 ? { workConsumers: workers } : {}) }))
            .filter((t) => t.endsIn.kind === 'attempt-cap')
            .map((t) => t.msgId)
        : [];
    return { events: attributePublishers(r.events, design.publishers.map((p) => p.id)), truncated: r.truncated, endTime: r.endTime, capped };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
