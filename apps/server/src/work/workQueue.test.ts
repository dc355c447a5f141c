import { describe, expect, it } from 'vitest';
import { QueueRefusal, WorkQueue } from './workQueue.js';

/** a job that ends when told to */
function gate(): { job: () => Promise<string>; open: () => void } {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { job: () => done.then(() => 'done'), open };
}

describe('WorkQueue', () => {
  it('runs `running` at once, lines up `waiting` more, refuses the next with 503 and a Retry-After', async () => {
    const q = new WorkQueue({ running: 1, waiting: 1, perClient: 5, maxWaitMs: 10_000 });
    const a = gate();
    const b = gate();
    const first = q.run('x', a.job);
    const second = q.run('y', b.job);
    expect(q.stats).toEqual({ running: 1, waiting: 1 });
    const third = q.run('z', async () => 'never');
    await expect(third).rejects.toBeInstanceOf(QueueRefusal);
    const refusal = await third.catch((e: QueueRefusal) => e);
    expect(refusal).toMatchObject({ status: 503 });
    expect((refusal as QueueRefusal).retryAfterS).toBeGreaterThanOrEqual(1);
    a.open();
    expect(await first).toBe('done');
    b.open();
    expect(await second).toBe('done');
    expect(q.stats).toEqual({ running: 0, waiting: 0 });
  });

  it("a client's share: 429 beyond perClient, others still served", async () => {
    const q = new WorkQueue({ running: 1, waiting: 5, perClient: 1, maxWaitMs: 10_000 });
    const a = gate();
    const mine = q.run('same', a.job);
    await expect(q.run('same', async () => 'no')).rejects.toMatchObject({ status: 429 });
    const other = q.run('other', async () => 'yes');
    a.open();
    expect(await mine).toBe('done');
    expect(await other).toBe('yes');
  });

  it('a job whose client went away leaves the line; one that waits too long is refused', async () => {
    const q = new WorkQueue({ running: 1, waiting: 5, perClient: 5, maxWaitMs: 50 });
    const a = gate();
    const running = q.run('x', a.job);
    const abort = new AbortController();
    const leaving = q.run('y', async () => 'ran', abort.signal);
    abort.abort();
    await expect(leaving).rejects.toThrow('went away');
    const waiting = q.run('z', async () => 'ran');
    await expect(waiting).rejects.toMatchObject({ status: 503 });
    expect(q.stats.waiting).toBe(0);
    a.open();
    await running;
  });
});
