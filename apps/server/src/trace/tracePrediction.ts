/**
 * GET /api/trace/:id/prediction's answer, worked out where the HTTP layer runs heavy work (a worker
 * thread: simulating up to 2,000 messages and comparing them held the event loop, and with it every
 * live trace's events, for as long as it took). Pure: the trace's design and options, and the live
 * steps the trace kept (comparedEvents.ts), in; the response out.
 */
import type { Design } from '@retry-studio/topology-core/model';
import { firstMessages, type NodeLoss, type RetryHorizon } from '@retry-studio/topology-core/sim';
import type { PredictionResponse } from '@retry-studio/contract';
import {
  compareTrace,
  MAX_COMPARED_EVENTS,
  MAX_PREDICTED_MESSAGES,
  predict,
  type Comparison,
  type Milestones,
} from './prediction.js';

/** what the answer is worked out from (structured-cloneable: it crosses to the worker thread) */
export interface TracePredictionInput {
  readonly design: Design;
  readonly predict: Parameters<typeof predict>[1];
  /** how far the prediction runs (prediction.ts predictionHorizon), read where the trace is */
  readonly horizon: RetryHorizon;
  /** the node loss the prediction includes, and whether the request asked for it or the trace saw it */
  readonly nodeLoss?: { readonly loss: NodeLoss; readonly source: 'request' | 'observed' };
  /** the live steps, and whether some were not kept */
  readonly actual: Milestones;
  readonly actualTruncated: boolean;
  readonly complete: boolean;
  readonly published: number;
  readonly duplicates: ReadonlySet<string>;
  /** the comparison kept once the trace was over (then `actual` is empty) */
  readonly kept?: Comparison;
  /** the predicted events of the first N messages only (what a page draws) */
  readonly shown?: number;
  readonly withEvents: boolean;
}

/** the simulator failed on the design: said in one line (the route answers 500) */
export class PredictionFailed extends Error {}

export function predictionAnswer(input: TracePredictionInput): PredictionResponse {
  const needsEvents = input.withEvents || input.kept === undefined;
  let p: ReturnType<typeof predict> | undefined;
  if (needsEvents) {
    try {
      p = predict(input.design, input.predict);
    } catch (err) {
      throw new PredictionFailed(
        `the simulator failed on this design: ${String((err as Error).message).slice(0, 300)}`,
      );
    }
  }
  const comparison =
    input.kept ??
    compareTrace(p!.events, input.actual, {
      complete: input.complete,
      published: input.published,
      duplicates: input.duplicates,
    });
  const truncated = (input.predict.messages ?? 1) > MAX_PREDICTED_MESSAGES;
  return {
    comparison,
    horizon: input.horizon,
    ...(input.nodeLoss ? { nodeLoss: { ...input.nodeLoss.loss, source: input.nodeLoss.source } } : {}),
    ...(truncated ? { note: `the prediction covers the first ${MAX_PREDICTED_MESSAGES} messages` } : {}),
    ...(input.actualTruncated
      ? { note: `the comparison keeps the first ${MAX_COMPARED_EVENTS} live events of those messages` }
      : {}),
    ...(input.withEvents && p
      ? { predicted: input.shown !== undefined ? firstMessages(p.events, input.shown) : p.events.slice(0, 20_000) }
      : {}),
  };
}
