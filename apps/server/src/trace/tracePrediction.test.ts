import { describe, expect, it } from 'vitest';
import { retryLoopDesign } from '../http/testing.js';
import { ComparedEvents } from './comparedEvents.js';
import { MAX_PREDICTED_MESSAGES, predict, predictionHorizon } from './prediction.js';
import { predictionAnswer, PredictionFailed, type TracePredictionInput } from './tracePrediction.js';

const design = retryLoopDesign('answer', { ttl: 100, maxRetries: 1 });
const opts = { messages: 3, failure: { kind: 'failFirst', n: 1 } } as const;

/** the prediction's own events kept as a trace keeps its live ones (steps, not events) */
function liveSteps(messages = 3) {
  const kept = new ComparedEvents((id) => Number(/-(\d+)$/.exec(id)?.[1] ?? 0));
  for (const e of predict(design, { ...opts, messages }).events) kept.keep(e);
  return kept.milestones();
}

const input = (over: Partial<TracePredictionInput> = {}): TracePredictionInput => ({
  design,
  predict: opts,
  horizon: predictionHorizon(design, {}),
  actual: liveSteps().milestones,
  actualTruncated: false,
  complete: true,
  published: 3,
  duplicates: new Set(),
  withEvents: true,
  ...over,
});

describe('predictionAnswer (the prediction route, in a worker thread)', () => {
  it('compares the steps a trace keeps with the prediction: the prediction matches itself', () => {
    const a = predictionAnswer(input());
    expect(a.comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
    expect(a.horizon.ms).toBeGreaterThan(0);
    expect(a.predicted?.length).toBe(predict(design, opts).events.length);
    expect(a.note).toBeUndefined();
  });

  it('the predicted events of the first N messages only, or none', () => {
    expect(new Set(predictionAnswer(input({ shown: 1 })).predicted?.map((e) => e.msgId))).toEqual(new Set(['p1-1']));
    expect(predictionAnswer(input({ withEvents: false })).predicted).toBeUndefined();
  });

  it('a kept comparison is answered as kept, without simulating (a design the simulator would fail on)', () => {
    const kept = predictionAnswer(input()).comparison;
    const broken = { ...design, topology: undefined as never };
    const a = predictionAnswer(input({ design: broken, kept, actual: new Map(), withEvents: false }));
    expect(a.comparison).toEqual(kept);
    expect(() => predictionAnswer(input({ design: broken, kept: undefined }))).toThrow(PredictionFailed);
  });

  it('says what it covers: past MAX_PREDICTED_MESSAGES, and steps not kept', () => {
    const big = predictionAnswer(
      input({ predict: { ...opts, messages: MAX_PREDICTED_MESSAGES + 1 }, withEvents: false }),
    );
    expect(big.note).toBe(`the prediction covers the first ${MAX_PREDICTED_MESSAGES} messages`);
    expect(predictionAnswer(input({ actualTruncated: true, withEvents: false })).note).toMatch(/keeps the first/);
  });
});
