import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { dlxTtlRetry } from '../fixtures/designs';
import { createDesignJobs } from './designJobs';
import { lintFindings, type Finding } from './lintView';

/** a runner whose runs end when the test says (`finish`), recording which versions it was asked for */
function heldRunner() {
  const asked: Design[] = [];
  const ends: Array<() => void> = [];
  const run = (design: Design, nodes: number | undefined) => {
    asked.push(design);
    return new Promise<Finding[]>((resolve) => ends.push(() => resolve(lintFindings(design, nodes))));
  };
  const finish = async () => {
    ends.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { run, asked, finish };
}

describe('design jobs (a big design linted off the page)', () => {
  it('keeps each result for the version it was computed for, and says when one arrives', async () => {
    const r = heldRunner();
    const jobs = createDesignJobs(r.run, [] as Finding[]);
    let heard = 0;
    jobs.subscribe(() => heard++);
    const d = dlxTtlRetry({ ttl: 5 });
    jobs.request(d, undefined);
    expect(jobs.get(d, undefined)).toBeUndefined();
    await r.finish();
    expect(jobs.get(d, undefined)).toEqual(lintFindings(d));
    expect(jobs.get(d, 3)).toBeUndefined();
    expect(heard).toBe(1);
  });

  it('runs one job at a time: of the versions asked for meanwhile, only the latest', async () => {
    const r = heldRunner();
    const jobs = createDesignJobs(r.run, [] as Finding[]);
    const [a, b, c] = [dlxTtlRetry({ ttl: 1 }), dlxTtlRetry({ ttl: 2 }), dlxTtlRetry({ ttl: 3 })];
    jobs.request(a, undefined);
    jobs.request(b, undefined);
    jobs.request(c, undefined);
    jobs.request(a, undefined);
    expect(r.asked).toEqual([a]);
    await r.finish();
    // `a` is known now; `b` was overtaken by `c`, then `a` asked again needs no run
    expect(r.asked).toEqual([a]);
    jobs.request(c, undefined);
    expect(r.asked).toEqual([a, c]);
    await r.finish();
    expect(jobs.get(b, undefined)).toBeUndefined();
    expect(jobs.get(c, undefined)).toBeDefined();
  });

  it('takes findings computed elsewhere (the import worker) without running again', () => {
    const r = heldRunner();
    const jobs = createDesignJobs(r.run, [] as Finding[]);
    const d = dlxTtlRetry();
    jobs.put(d, undefined, []);
    jobs.request(d, undefined);
    expect(r.asked).toEqual([]);
    expect(jobs.get(d, undefined)).toEqual([]);
  });

  it('adopts a result computed elsewhere: not asked for meanwhile, kept and heard when it arrives', async () => {
    const r = heldRunner();
    const jobs = createDesignJobs(r.run, [] as Finding[]);
    let heard = 0;
    jobs.subscribe(() => heard++);
    const d = dlxTtlRetry({ ttl: 5 });
    let arrive: (f: Finding[]) => void = () => undefined;
    jobs.adopt(d, undefined, new Promise<Finding[]>((resolve) => (arrive = resolve)));
    jobs.request(d, undefined);
    expect(r.asked).toEqual([]);
    arrive(lintFindings(d));
    await new Promise((res) => setTimeout(res, 0));
    expect(jobs.get(d, undefined)).toEqual(lintFindings(d));
    expect(heard).toBe(1);
  });
});
