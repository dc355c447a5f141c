/** A worker entry with job kinds for heavyWorkers.test.ts: work that spins, grows, answers big, or tells a size. */
import { workSize } from '@retry-studio/topology-core/sizing';
import { serveJobs, type HeavyJob } from './workerSide.js';

const spin = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

const driver = { field: 'load.durationMs', option: '--duration', what: 'a test load', fix: 'make it smaller' };

const jobs: HeavyJob[] = [
  { kind: 'echo', run: (input) => ({ echo: input }) },
  {
    kind: 'spin',
    run: (input) => {
      spin((input as { ms: number }).ms);
      return { spun: true };
    },
  },
  {
    kind: 'grow',
    run: () => {
      const kept: number[][] = [];
      for (;;) kept.push(new Array(1_000_000).fill(kept.length + 0.5));
    },
  },
  { kind: 'big', run: (input) => ({ text: 'x'.repeat((input as { bytes: number }).bytes) }) },
  {
    kind: 'sized',
    run: (input, ctx) => {
      const { steps, bytes, ms } = input as { steps: number; bytes: number; ms: number };
      ctx.size(workSize('rehearse', [{ driver, count: 1, unit: 'loads', bytes, steps, answerBytes: 100 }]));
      spin(ms);
      return { ran: true };
    },
  },
  {
    kind: 'refuse',
    run: () => {
      throw Object.assign(new Error('load.rate: must be above 0'), { status: 400, field: 'load.rate' });
    },
  },
  {
    kind: 'throw',
    run: () => {
      throw new Error('something broke');
    },
  },
];

serveJobs(jobs);
