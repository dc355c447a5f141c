import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORK_LIMITS, HeavyWorkers, WorkCancelled, WorkRefused } from './heavyWorkers.js';

const entry = new URL('./heavyWorkers.fixture.ts', import.meta.url);
const workers = new HeavyWorkers(entry, {
  ...DEFAULT_WORK_LIMITS,
  heapMb: 64,
  budget: { bytes: 100e6, steps: 5e6, answerBytes: 10_000 },
  minRunMs: 1500,
  maxRunMs: 20_000,
  queue: { running: 2, waiting: 4, perClient: 10, maxWaitMs: 60_000 },
});
afterAll(() => workers.close());
const run = (kind: string, input: unknown = {}, signal?: AbortSignal) =>
  workers.run(kind, input, { client: 't', ...(signal ? { signal } : {}) });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('HeavyWorkers: each job in a worker thread of its own, within budgets', () => {
  it('answers as JSON; the event loop stays free while a job spins', async () => {
    expect(JSON.parse(await run('echo', { a: 1 }))).toEqual({ echo: { a: 1 } });
    const spinning = run('spin', { ms: 800 });
    // timers keep firing while the worker spins
    const ticks: number[] = [];
    const t0 = Date.now();
    const iv = setInterval(() => ticks.push(Date.now() - t0), 20);
    await spinning;
    clearInterval(iv);
    expect(ticks.length).toBeGreaterThan(10);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
    expect(Math.max(...gaps)).toBeLessThan(200);
  }, 60_000);

  it('a job over its heap limit is stopped and refused (422), the server lives on', async () => {
    const e = await refusal(run('grow'));
    expect(e).toBeInstanceOf(WorkRefused);
    expect(e).toMatchObject({ status: 422 });
    expect((e as Error).message).toMatch(/ran out of the .* of memory a request to this server may take/);
    expect(JSON.parse(await run('echo', 2))).toEqual({ echo: 2 });
  }, 60_000);

  it('an answer over budget: 413', async () => {
    const e = await refusal(run('big', { bytes: 20_000 }));
    expect(e).toMatchObject({ status: 413 });
    expect((e as Error).message).toMatch(/the answer is 20 kB, over the 10 kB a request to this server may answer/);
  }, 60_000);

  it('a size over budget is refused before the work, naming the field; the time budget follows the estimate', async () => {
    const over = await refusal(run('sized', { steps: 1e7, bytes: 1, ms: 0 }));
    expect(over).toMatchObject({ status: 422, field: 'load.durationMs' });
    expect((over as Error).message).toMatch(
      /a test load: about 10 s of computing \(estimated\), over the 5 s of computing a request to this server may take; make it smaller/,
    );
    // estimated 1 ms: budget 4 x 1 ms + 1.5 s; it spins 4 s
    const slow = await refusal(run('sized', { steps: 1000, bytes: 1, ms: 4000 }));
    expect(slow).toMatchObject({ status: 422, field: 'load.durationMs' });
    expect((slow as Error).message).toMatch(/went over its time budget of 2 s \(a test load\)/);
  }, 60_000);

  it("a job's own refusal keeps its status and field; a failure is an Error", async () => {
    expect(await refusal(run('refuse'))).toMatchObject({ status: 400, field: 'load.rate' });
    const e = await refusal(run('throw'));
    expect(e).not.toBeInstanceOf(WorkRefused);
    expect((e as Error).message).toBe('something broke');
  }, 60_000);

  it('the client going away stops the worker', async () => {
    const abort = new AbortController();
    const p = run('spin', { ms: 15_000 }, abort.signal);
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    abort.abort();
    expect(await refusal(p)).toBeInstanceOf(WorkCancelled);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(workers.queue.stats.running).toBe(0);
  }, 60_000);
});
