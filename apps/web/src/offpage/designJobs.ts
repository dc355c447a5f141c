/**
 * Results computed off the page for one design version: one job at a time (the latest version asked
 * for waits; versions asked for in between are skipped), each result kept for the design object it
 * was computed for and a key (lint's probed cluster size). A subscriber hears when a result arrives.
 */
import type { Design } from '@retry-studio/topology-core/model';

export type DesignRunner<K, T> = (design: Design, key: K) => Promise<T>;

interface Job<K> {
  design: Design;
  key: K;
}

export interface DesignJobs<K, T> {
  /** the result computed for this design object and key, if any */
  get(design: Design, key: K): T | undefined;
  /** keeps a result computed elsewhere (the import worker lints what it reads) */
  put(design: Design, key: K, result: T): void;
  /** a result being computed elsewhere (the import worker lints what it read): kept when it arrives, not asked for meanwhile */
  adopt(design: Design, key: K, result: Promise<T>): void;
  /** asks for this version's result: started now, or once the running job ends */
  request(design: Design, key: K): void;
  /** called whenever a result arrives; returns the unsubscribe */
  subscribe(f: () => void): () => void;
}

/** `failed`: the result of a run that threw (a half-edited design can trip a rule) */
export function createDesignJobs<K, T>(run: DesignRunner<K, T>, failed: T): DesignJobs<K, T> {
  // weakly held: an edited design's old versions go with the undo history that holds them
  const results = new WeakMap<Design, Map<K, T>>();
  const listeners = new Set<() => void>();
  let running: Job<K> | null = null;
  let next: Job<K> | null = null;
  const adopted = new WeakMap<Design, Set<K>>();
  const has = (design: Design, key: K) =>
    (results.get(design)?.has(key) ?? false) || (adopted.get(design)?.has(key) ?? false);
  const heard = () => {
    for (const l of listeners) l();
  };
  const put = (design: Design, key: K, result: T) => {
    let m = results.get(design);
    if (!m) results.set(design, (m = new Map()));
    m.set(key, result);
  };
  const start = (job: Job<K>) => {
    running = job;
    run(job.design, job.key)
      .then(
        (r) => put(job.design, job.key, r),
        () => put(job.design, job.key, failed),
      )
      .finally(() => {
        running = null;
        const n = next;
        next = null;
        if (n && !has(n.design, n.key)) start(n);
        heard();
      });
  };
  return {
    get: (design, key) => results.get(design)?.get(key),
    put,
    adopt(design, key, result) {
      let keys = adopted.get(design);
      if (!keys) adopted.set(design, (keys = new Set()));
      keys.add(key);
      result
        .then(
          (r) => put(design, key, r),
          () => put(design, key, failed),
        )
        .finally(() => {
          adopted.get(design)?.delete(key);
          heard();
        });
    },
    request(design, key) {
      if (has(design, key)) return;
      const same = (j: Job<K> | null) => !!j && j.design === design && j.key === key;
      // the version running is the one wanted again (an undo): what was queued after it is not wanted any more
      if (same(running)) next = null;
      else if (running) next = { design, key };
      else start({ design, key });
    },
    subscribe(f) {
      listeners.add(f);
      return () => {
        listeners.delete(f);
      };
    },
  };
}
