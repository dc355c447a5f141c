/** What a trace's prediction is worked out from (trace/tracePrediction.ts), read off the trace as it is now. */
import type { TraceSession } from '../trace/traceSession.js';
import type { TracePredictionInput } from '../trace/tracePrediction.js';
import { predictionHorizon } from '../trace/prediction.js';

export function predictionInput(
  s: TraceSession,
  ask: { readonly shown: number | undefined; readonly withEvents: boolean },
): TracePredictionInput {
  const ended = !s.isRunning;
  const kept = s.finalComparison;
  const { milestones, truncated } = s.comparedMilestones();
  // a node loss asked for, or the one this trace saw: the prediction includes it
  const loss = s.predictedNodeLoss();
  const overrides = { headers: s.opts.headers, expiration: s.opts.expiration, priority: s.opts.priority };
  return {
    design: s.design,
    horizon: predictionHorizon(s.design, { publisher: s.publisherSpec.id, overrides }),
    predict: {
      messages: s.opts.messages ?? 1,
      publisher: s.publisherSpec.id,
      seed: s.seed,
      overrides,
      ...(s.failure ? { failure: s.failure } : {}),
      ...(loss ? { nodeLoss: loss.loss } : {}),
      ...(s.opts.ratePerSecond ? { ratePerSecond: s.opts.ratePerSecond } : {}),
    },
    ...(loss ? { nodeLoss: loss } : {}),
    actual: kept === undefined ? milestones : new Map(),
    actualTruncated: truncated,
    complete: ended && !truncated,
    // the running trace's count without summing it up (a summary reads every message's fate)
    published: ended ? s.summary().published : s.accounting.published.size,
    duplicates: s.duplicateIds,
    ...(kept !== undefined ? { kept } : {}),
    ...(ask.shown !== undefined ? { shown: ask.shown } : {}),
    withEvents: ask.withEvents,
  };
}
