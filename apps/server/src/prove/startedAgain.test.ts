import { describe, expect, it } from 'vitest';
import type { RunningJob } from './frameworkRunner.js';
import type { RunnerEvent } from './runnerProcess.js';
import { startedAgainIfStale, type StartTry } from './startedAgain.js';

/** a runner process: each start a job whose events the test sends */
function fakeRunner(opts: { usedBefore: boolean }) {
  const jobs: { emit: (e: RunnerEvent) => void; stopped: boolean }[] = [];
  const notes: string[] = [];
  let retired = 0;
  const t: StartTry = {
    start: async () => {
      let fn: (e: RunnerEvent) => void = () => undefined;
      const j = { emit: (e: RunnerEvent) => fn(e), stopped: false };
      jobs.push(j);
      const job: RunningJob = {
        version: `v${jobs.length}`,
        on: (f) => (fn = f),
        stop: async () => {
          j.stopped = true;
        },
        logTail: () => `log of start ${jobs.indexOf(j) + 1}`,
      };
      return job;
    },
    // the first start's process had run others (as asked); a fresh one had not
    usedBefore: () => jobs.length === 1 && opts.usedBefore,
    retire: () => retired++,
    note: (why) => notes.push(why),
  };
  return { t, jobs, notes, retired: () => retired };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** the job started through startedAgainIfStale, and the events its caller hears */
async function started(r: ReturnType<typeof fakeRunner>) {
  const job = await startedAgainIfStale(r.t);
  const seen: RunnerEvent[] = [];
  job.on((e) => seen.push(e));
  return { job, seen };
}

describe('a start that failed in a runner that had run other jobs', () => {
  it('is started once more in a fresh runner, its events from there', async () => {
    const r = fakeRunner({ usedBefore: true });
    const { job, seen } = await started(r);
    r.jobs[0]!.emit({ event: 'error', message: 'IllegalStateException: java.util.NoSuchElementException' });
    await tick();
    expect(r.retired()).toBe(1);
    expect(r.jobs).toHaveLength(2);
    expect(r.notes[0]).toMatch(/fresh one:\nIllegalStateException/);
    expect(seen).toEqual([]);
    r.jobs[1]!.emit({ event: 'started' });
    expect(seen).toEqual([{ event: 'started' }]);
    expect(job.logTail()).toBe('log of start 2');
    await job.stop();
    expect(r.jobs[1]!.stopped).toBe(true);
  });

  it('a second failure is the answer', async () => {
    const r = fakeRunner({ usedBefore: true });
    const { seen } = await started(r);
    r.jobs[0]!.emit({ event: 'error', message: 'first' });
    await tick();
    r.jobs[1]!.emit({ event: 'error', message: 'second' });
    expect(seen).toEqual([{ event: 'error', message: 'second' }]);
    expect(r.jobs).toHaveLength(2);
  });

  it('a failure in a fresh runner, or after the job started, is not tried again', async () => {
    const fresh = fakeRunner({ usedBefore: false });
    const { seen: seenA } = await started(fresh);
    fresh.jobs[0]!.emit({ event: 'error', message: 'bad configuration' });
    expect(seenA).toEqual([{ event: 'error', message: 'bad configuration' }]);
    expect(fresh.retired()).toBe(0);

    const used = fakeRunner({ usedBefore: true });
    const { seen: seenB } = await started(used);
    used.jobs[0]!.emit({ event: 'started' });
    used.jobs[0]!.emit({ event: 'error', message: 'closing failed' });
    expect(seenB.map((e) => e.event)).toEqual(['started', 'error']);
    expect(used.jobs).toHaveLength(1);
  });
});
