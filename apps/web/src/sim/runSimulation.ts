/** Runs the core simulator on a design (the web never simulates anything itself). */
import { describeIssue, validateDesign, type Design, type FailureModel } from '@retry-studio/topology-core/model';
import {
  describeOutcome,
  designToSimulation,
  outcomesOfEvents,
  outcomesOfRun,
  retryHorizon,
  simulate,
  type MessageOutcome,
  type NodeLoss,
  type RetryHorizon,
  type SimEvent,
} from '@retry-studio/topology-core/sim';

export interface RunOptions {
  messages: number;
  failure: FailureModel;
  seed: number;
  /** stop after this many events (keeps the browser responsive) */
  maxEvents?: number;
  /** a cluster node lost for a while (the simulation bar's "node down") */
  nodeLoss?: NodeLoss;
}

/** Each message's outcome as the core decides it (sim/messageOutcome.ts), and its words: what the lane and the detail print. */
export interface StatedOutcome {
  readonly outcome: MessageOutcome;
  readonly text: string;
}

/**
 * Each message's outcome read from an event stream alone (a live trace's, or the server's
 * prediction for it), by the core's one outcome function (sim/eventOutcomes.ts): the live lanes
 * and the predicted ones state their outcome with the same words and rules as a simulated run.
 * `running`: the trace is still going (a message at a worker is being processed, not held).
 * `horizon`: the events are a prediction run to that horizon (the server's, sim/retryHorizon.ts):
 * its lanes are worded as simulate words a run, not as a trace still going.
 */
export function statedOutcomesOfEvents(
  design: Design,
  events: readonly SimEvent[],
  opts: { running: boolean; failure?: FailureModel; horizon?: RetryHorizon },
): Record<string, StatedOutcome> {
  const out: Record<string, StatedOutcome> = {};
  const { byMsg } = outcomesOfEvents(design, events, {
    running: opts.running,
    ...(opts.failure ? { failure: opts.failure } : {}),
  });
  const said = opts.horizon
    ? { topology: design.topology, horizon: opts.horizon }
    : { topology: design.topology, live: true };
  for (const [msgId, outcome] of byMsg) out[msgId] = { outcome, text: describeOutcome(outcome, said) };
  return out;
}

export type RunResult =
  | { events: SimEvent[]; truncated: boolean; endTime: number; outcomes: Readonly<Record<string, StatedOutcome>> }
  | { error: string };

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
  if (!design.publishers.length)
    return { error: 'Add a publisher: the simulation publishes its test messages through it.' };
  const v = validateDesign(design);
  if (!v.ok)
    return {
      error: `Fix the design first: ${v.errors
        .slice(0, 3)
        .map((e) => describeIssue(design, e))
        .join('; ')}`,
    };
  try {
    const input = designToSimulation(design, { messages: opts.messages, failure: opts.failure, seed: opts.seed });
    // the design's horizon (its longest TTL chain, sim/retryHorizon.ts), as simulate and the budget run to: a lane says what the CLI says
    const horizon = retryHorizon(design);
    const r = simulate({
      ...input,
      maxTimeMs: horizon.ms,
      maxEvents: opts.maxEvents ?? 40_000,
      ...(opts.nodeLoss ? { nodeLoss: opts.nodeLoss } : {}),
    });
    const outcomes: Record<string, StatedOutcome> = {};
    for (const [msgId, outcome] of outcomesOfRun(design, r, opts.failure).byMsg)
      outcomes[msgId] = {
        outcome,
        text: describeOutcome(outcome, { topology: design.topology, horizon }),
      };
    return {
      events: attributePublishers(
        r.events,
        design.publishers.map((p) => p.id),
      ),
      truncated: r.truncated,
      endTime: r.endTime,
      outcomes,
    };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
