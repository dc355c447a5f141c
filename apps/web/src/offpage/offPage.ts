/**
 * The page's side of the design worker (designWorker.ts): lint and the stated fate of a big design,
 * by design version. One worker, started with the first big design; without workers (unit tests)
 * the same functions run here, a turn later.
 */
import { useSyncExternalStore } from 'react';
import type { Design } from '@retry-studio/topology-core/model';
import { statedFate, type StatedFate } from '@retry-studio/topology-core/templates';
import { createDesignJobs } from './designJobs';
import { designLint, LINT_IN_WORKER_MIN, lintSize, type DesignLint } from './lintView';
import type { DesignAnswer, DesignAsk } from './designWorker';

type Ask = DesignAsk extends infer A ? (A extends DesignAsk ? Omit<A, 'id'> : never) : never;

let worker: Worker | null = null;
let seq = 0;
const waiting = new Map<number, (a: DesignAnswer) => void>();

function ask(q: Ask): Promise<DesignAnswer> {
  if (typeof Worker === 'undefined')
    return Promise.resolve().then((): DesignAnswer =>
      q.kind === 'lint'
        ? { id: 0, kind: 'lint', lint: designLint(q.design, q.nodes) }
        : { id: 0, kind: 'fate', fate: statedFate(q.design) ?? null },
    );
  if (!worker) {
    worker = new Worker(new URL('./designWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<DesignAnswer>) => {
      waiting.get(e.data.id)?.(e.data);
      waiting.delete(e.data.id);
    };
  }
  const id = ++seq;
  const w = worker;
  return new Promise<DesignAnswer>((resolve) => {
    waiting.set(id, resolve);
    // in a task of its own: asked from the effects of the render that draws a design, the copy of a 5,000-queue
    // design for the worker (tens of ms) lengthened that render's task
    setTimeout(() => w.postMessage({ ...q, id } as DesignAsk), 0);
  });
}

const NO_LINT: DesignLint = { lint: [], invalid: [], validation: { errors: [], warnings: [] } };

/** lint's findings and the validation errors by design version and probed cluster size */
export const lintJobs = createDesignJobs<number | undefined, DesignLint>(
  (design, nodes) => ask({ kind: 'lint', design, nodes }).then((a) => (a.kind === 'lint' ? a.lint : NO_LINT)),
  NO_LINT,
);

/** what a message that always fails does (the core's statedFate), by design version */
export const fateJobs = createDesignJobs<'fate', StatedFate | null>(
  (design) => ask({ kind: 'fate', design }).then((a) => (a.kind === 'fate' ? a.fate : null)),
  null,
);

/** a design this big is linted (and its fate simulated) off the page */
export const offPageSized = (design: Design): boolean => lintSize(design) >= LINT_IN_WORKER_MIN;

let arrived = 0;
const bump = () => arrived++;
lintJobs.subscribe(bump);
fateJobs.subscribe(bump);
const subscribe = (f: () => void) => {
  const a = lintJobs.subscribe(f);
  const b = fateJobs.subscribe(f);
  return () => {
    a();
    b();
  };
};

/** a number that changes whenever an off-page result arrives: a hook's memo recomputes with it */
export function useOffPageResults(): number {
  return useSyncExternalStore(subscribe, () => arrived);
}
