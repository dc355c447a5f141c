import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelPrediction } from '@retry-studio/topology-core/prove';
import type { RunnerEvent } from './runnerProcess.js';
import { attemptCap, predictedWatchMs, watchRun } from './watchRun.js';

const prediction = (over: Partial<ChannelPrediction>): ChannelPrediction => ({
  consumer: 'c',
  queue: 'q',
  attempts: 3,
  delaysMs: [1000, 2000],
  end: 'dropped',
  jitter: false,
  endTime: 3000,
  outcome: { kind: 'dropped', why: 'no-dlx' } as ChannelPrediction['outcome'],
  message: { publisher: 'p', body: 'p-1' },
  ...over,
});

const attempt = (t: number): RunnerEvent => ({
  event: 'attempt',
  t,
  queue: 'q',
  body: 'p-1',
  deliveryTag: 1,
  redelivered: false,
  headers: {},
  xDeath: null,
  failed: true,
});

describe('how long a run is watched', () => {
  it('to the predicted end, or for a few turns of a predicted loop', () => {
    expect(attemptCap(prediction({}))).toBe(8);
    expect(predictedWatchMs(prediction({}))).toBe(3000);
    const loop = prediction({ attempts: 6666, delaysMs: Array(6665).fill(5), end: 'cycling' });
    expect(attemptCap(loop)).toBe(12);
    expect(predictedWatchMs(loop)).toBe(55);
  });
});

describe('watching a real run', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stops when no attempt follows the last one for longer than the next predicted wait', async () => {
    let send: (e: RunnerEvent) => void = () => undefined;
    const t0 = Date.now();
    const done = watchRun((fn) => (send = fn), t0, prediction({}), 60_000);
    send(attempt(t0 + 5));
    await vi.advanceTimersByTimeAsync(1000);
    send(attempt(t0 + 1005));
    await vi.advanceTimersByTimeAsync(2000);
    send(attempt(t0 + 3005));
    await vi.advanceTimersByTimeAsync(10_000);
    const r = await done;
    expect(r.attempts.map((a) => a.t)).toEqual([5, 1005, 3005]);
    expect(r.stillGoing).toBe(false);
  });

  it('a framework that keeps going past the cap is still going', async () => {
    let send: (e: RunnerEvent) => void = () => undefined;
    const t0 = Date.now();
    const done = watchRun((fn) => (send = fn), t0, prediction({}), 60_000);
    for (let i = 0; i < 8; i++) send(attempt(t0 + i));
    const r = await done;
    expect(r.attempts.length).toBe(8);
    expect(r.stillGoing).toBe(true);
  });

  it("the framework's error ends the watch with its words", async () => {
    let send: (e: RunnerEvent) => void = () => undefined;
    const done = watchRun((fn) => (send = fn), Date.now(), prediction({}), 60_000);
    send({ event: 'error', message: 'BindException: bad property' });
    await expect(done).rejects.toThrow('BindException: bad property');
  });
});
