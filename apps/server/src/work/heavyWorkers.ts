/**
 * Heavy work requested over HTTP runs here, off the event loop: each job in a worker thread of
 * its own (a fresh one each time, started ahead as a spare so a job does not wait for it), with
 * a heap limit (resourceLimits), a time budget set from the job's own size estimate, and an
 * answer budget; stopped when its client goes away. Jobs wait in a bounded queue (workQueue.ts).
 * `/api/health`, the event streams and every other route keep answering whatever runs.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { UNIT_COSTS, type WorkBudget } from '@retry-studio/topology-core/sizing';
import { formatBytes } from '@retry-studio/topology-core/text';
import { startWorker } from './workerEntry.js';
import type { JobRefusalBody, RunJob, WorkerReport } from './workProtocol.js';
import { WorkQueue, type QueueLimits } from './workQueue.js';

export interface WorkLimits {
  /** the heap a worker may grow to (resourceLimits.maxOldGenerationSizeMb); past it the job is stopped */
  readonly heapMb: number;
  /** the estimate a job may have: memory, steps, answer */
  readonly budget: Omit<WorkBudget, 'holder'>;
  /** a job's time budget: 4 x its estimated time + minRunMs, at most maxRunMs */
  readonly minRunMs: number;
  readonly maxRunMs: number;
  readonly queue: QueueLimits;
  /** workers started ahead of need */
  readonly spares: number;
}

export const DEFAULT_WORK_LIMITS: WorkLimits = {
  heapMb: 1024,
  budget: { bytes: 512e6, steps: 2e7, answerBytes: 32e6 },
  minRunMs: 10_000,
  maxRunMs: 30_000,
  queue: {
    running: Math.max(1, Math.min(4, availableParallelism() - 1)),
    waiting: 8,
    perClient: 3,
    maxWaitMs: 25_000,
  },
  spares: 1,
};

const HOLDER = 'a request to this server';
/** a worker that does not say it is ready within this is given up (tsx compiles the core on a cold cache) */
const START_TIMEOUT_MS = 60_000;

/** a job answered with a refusal (its own, or over a budget), or the queue's (with Retry-After) */
export class WorkRefused extends Error implements JobRefusalBody {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** the client went away: nobody waits for the answer */
export class WorkCancelled extends Error {}

type SizeReport = Extract<WorkerReport, { type: 'size' }>;

export class HeavyWorkers {
  readonly queue: WorkQueue;
  private readonly spares: Promise<Worker>[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(
    /** the worker's TypeScript entry (it calls serveJobs with the job kinds) */
    private readonly entry: URL,
    readonly limits: WorkLimits = DEFAULT_WORK_LIMITS,
  ) {
    this.queue = new WorkQueue(limits.queue);
  }

  /** the job's answer as JSON; WorkRefused (a status to answer with), WorkCancelled, or an Error (a failure) */
  run(kind: string, input: unknown, opts: { client: string; signal?: AbortSignal }): Promise<string> {
    if (this.closed) return Promise.reject(new WorkRefused(503, 'the server is stopping'));
    return this.queue.run(opts.client, () => this.once(kind, input, opts.signal), opts.signal);
  }

  async close(): Promise<void> {
    this.closed = true;
    const spares = this.spares.splice(0);
    await Promise.all([
      ...[...this.busy].map((w) => w.terminate()),
      ...spares.map((p) => p.then((w) => w.terminate()).catch(() => undefined)),
    ]);
  }

  private spawn(): Promise<Worker> {
    return new Promise<Worker>((resolve, reject) => {
      let w: Worker;
      try {
        w = startWorker(this.entry, { maxOldGenerationSizeMb: this.limits.heapMb });
      } catch (e) {
        return reject(e);
      }
      w.unref();
      const timer = setTimeout(() => {
        void w.terminate();
        reject(new Error(`a worker thread did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const onError = (e: Error) => {
        clearTimeout(timer);
        reject(e);
      };
      w.once('error', onError);
      w.once('message', (r: WorkerReport) => {
        clearTimeout(timer);
        w.off('error', onError);
        if (r.type === 'ready') resolve(w);
        else reject(new Error('a worker thread spoke before it was ready'));
      });
    });
  }

  /** a ready worker: the spare started ahead, or a new one; a new spare is started behind it */
  private async take(): Promise<Worker> {
    const next = this.spares.shift() ?? this.spawn();
    while (!this.closed && this.spares.length < this.limits.spares) {
      const s = this.spawn();
      s.catch(() => undefined); // a spare that fails to start is noticed by the job that takes it
      this.spares.push(s);
    }
    return next;
  }

  private async once(kind: string, input: unknown, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) throw new WorkCancelled('the client went away');
    const worker = await this.take();
    // the client may have gone while the worker started
    if (signal?.aborted) {
      void worker.terminate();
      throw new WorkCancelled('the client went away');
    }
    this.busy.add(worker);
    const { minRunMs, maxRunMs, heapMb } = this.limits;
    return new Promise<string>((resolve, reject) => {
      let size: SizeReport | undefined;
      let ended = false;
      const started = Date.now();
      let budgetMs = maxRunMs;
      const blame = (): string => (size?.what ? ` (${size.what})` : '');
      const end = (settle: () => void) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.removeAllListeners();
        this.busy.delete(worker);
        void worker.terminate();
        settle();
      };
      const overTime = () =>
        end(() =>
          reject(
            new WorkRefused(
              422,
              `${kind} went over its time budget of ${Math.round(budgetMs / 1000)} s${blame()} and was stopped`,
              size?.field || undefined,
            ),
          ),
        );
      let timer = setTimeout(overTime, budgetMs);
      const onAbort = () => end(() => reject(new WorkCancelled('the client went away')));
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (r: WorkerReport) => {
        if (r.type === 'size') {
          size = r;
          const estimatedMs = (r.steps * UNIT_COSTS.nsPerStep) / 1e6;
          budgetMs = Math.min(maxRunMs, Math.max(minRunMs, 4 * estimatedMs + minRunMs));
          clearTimeout(timer);
          timer = setTimeout(overTime, Math.max(0, started + budgetMs - Date.now()));
        } else if (r.type === 'done') end(() => resolve(r.json));
        else if (r.type === 'refused') end(() => reject(new WorkRefused(r.status, r.message, r.field, r.details)));
        else if (r.type === 'failed') end(() => reject(new Error(r.message)));
      });
      worker.on('error', (e: Error & { code?: string }) =>
        end(() =>
          reject(
            e.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new WorkRefused(
                  422,
                  `${kind} ran out of the ${formatBytes(heapMb * 1024 * 1024)} of memory ${HOLDER} may take${blame()} and was stopped`,
                  size?.field || undefined,
                )
              : e,
          ),
        ),
      );
      worker.on('exit', (code) =>
        end(() => reject(new Error(`the worker thread stopped (exit ${code}) before answering`))),
      );
      worker.ref();
      const job: RunJob = { type: 'run', kind, input, budget: { holder: HOLDER, ...this.limits.budget } };
      worker.postMessage(job);
    });
  }
}
