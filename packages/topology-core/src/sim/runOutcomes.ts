/**
 * A design's run read message by message: every message's trace and outcome, the way the
 * browser's timeline and message detail, the CLI's simulate and the budget all read it (one
 * function: the work consumers, the queues where a message keeps moving, and whether an ack
 * came only from a fail-first worker are decided here, not by each caller).
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { SimulationResult } from './types.js';
import { activeQueuesOf, deadLetteringQueuesOf, traceMessages, type MessageTrace } from './messageTrace.js';
import { markNeverEndsFailingAlways } from './retryEnding.js';
import type { MessageOutcome } from './messageOutcome.js';

export interface RunOutcomes {
  readonly traces: readonly MessageTrace[];
  readonly byMsg: ReadonlyMap<string, MessageOutcome>;
}

/** `workConsumers`: whose processing counts as an attempt (default: every worker of the design; none: the consumer that saw the message most) */
export function outcomesOfRun(
  design: Design,
  result: SimulationResult,
  failure: FailureModel,
  workConsumers?: readonly string[],
): RunOutcomes {
  const workers = workConsumers ?? design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const traced = traceMessages(result, {
    activeQueues: activeQueuesOf(design),
    deadLettering: deadLetteringQueuesOf(design.topology),
    ...(workers.length > 0 ? { workConsumers: workers } : {}),
  });
  const traces = markNeverEndsFailingAlways(design, failure, traced);
  return { traces, byMsg: new Map(traces.map((t) => [t.msgId, t.outcome])) };
}
