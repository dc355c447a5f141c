/**
 * The worker thread's side of a job: receives it, lets the job announce its size (refused at once
 * when over budget, naming the field that makes it big), runs it, writes the answer as JSON and
 * refuses an answer over its budget. A thrown error with an HTTP `status` is a refusal (bad
 * input); anything else a failure, said in one line.
 */
import { parentPort } from 'node:worker_threads';
import { checkBudget, type WorkBudget, type WorkSize } from '@retry-studio/topology-core/sizing';
import { formatBytes } from '@retry-studio/topology-core/text';
import type { RunJob, WorkerReport } from './workProtocol.js';

export interface JobContext {
  readonly budget: WorkBudget;
  /** the work's estimated size: said to the server (it sets the time budget), and refused when over budget */
  size(size: WorkSize): void;
}

/** one kind of heavy work: a registered object, run in a worker thread */
export interface HeavyJob {
  readonly kind: string;
  run(input: unknown, ctx: JobContext): unknown;
}

/** a refusal: an error carrying an HTTP status (and the field to blame), as the HTTP layer's own HttpError does */
const refusal = (status: number, message: string, field?: string): Error =>
  Object.assign(new Error(message), { status, ...(field !== undefined ? { field } : {}) });

const statusOf = (e: unknown): number | undefined => {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' && s >= 400 && s < 600 ? s : undefined;
};

/** the part of a size that holds the most memory: what a refusal or a crash is blamed on */
export function biggestPart(size: WorkSize): { field: string; what: string } {
  let best: WorkSize['parts'][number] | undefined;
  for (const p of size.parts) if (!best || p.bytes > best.bytes) best = p;
  return best ? { field: best.driver.field, what: best.driver.what } : { field: '', what: '' };
}

export function serveJobs(jobs: readonly HeavyJob[]): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread');
  const byKind = new Map(jobs.map((j) => [j.kind, j]));
  const post = (r: WorkerReport): void => port.postMessage(r);
  port.on('message', (m: RunJob) => {
    if (m.type !== 'run') return;
    const job = byKind.get(m.kind);
    if (!job) return post({ type: 'failed', message: `no job of kind '${m.kind}'` });
    const ctx: JobContext = {
      budget: m.budget,
      size(size) {
        if (size.parts.length > 0)
          post({
            type: 'size',
            bytes: size.bytes,
            steps: size.steps,
            answerBytes: size.answerBytes,
            ...biggestPart(size),
          });
        const v = checkBudget(size, m.budget);
        if (!v.ok) throw refusal(v.dimension === 'answer' ? 413 : 422, v.message, v.driver.field);
      },
    };
    try {
      const json = JSON.stringify(job.run(m.input, ctx));
      if (json.length > m.budget.answerBytes)
        throw refusal(
          413,
          `the answer is ${formatBytes(json.length)}, over the ${formatBytes(m.budget.answerBytes)} ${m.budget.holder} may answer`,
        );
      post({ type: 'done', json });
    } catch (e) {
      const status = statusOf(e);
      if (status !== undefined) {
        const r = e as Error & { field?: string; details?: Record<string, unknown> };
        post({
          type: 'refused',
          status,
          message: r.message,
          ...(r.field !== undefined ? { field: r.field } : {}),
          ...(r.details !== undefined ? { details: r.details } : {}),
        });
      } else post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  });
  post({ type: 'ready' });
}
