/**
 * A bounded queue of heavy jobs: `running` at once, `waiting` more in line, no client with more
 * than `perClient` in both, no job waiting longer than `maxWaitMs`. A job that cannot be taken is
 * refused at once with a Retry-After from the jobs' recent durations (503 when the queue is full,
 * 429 when it is this client's share); a job whose client went away leaves the line.
 */
export interface QueueLimits {
  readonly running: number;
  readonly waiting: number;
  readonly perClient: number;
  readonly maxWaitMs: number;
}

export class QueueRefusal extends Error {
  constructor(
    readonly status: 429 | 503,
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}

interface Waiting {
  readonly client: string;
  readonly start: () => void;
  readonly fail: (e: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

export class WorkQueue {
  private running = 0;
  private readonly line: Waiting[] = [];
  private readonly perClient = new Map<string, number>();
  /** a moving average of how long a job runs, ms (for Retry-After) */
  private typicalMs = 2000;

  constructor(private readonly limits: QueueLimits) {}

  get stats(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.line.length };
  }

  private retryAfterS(ahead: number): number {
    return Math.max(1, Math.ceil(((ahead + 1) * this.typicalMs) / this.limits.running / 1000));
  }

  /** Runs `job` when its turn comes; refuses at once (QueueRefusal) when it cannot wait. */
  async run<T>(client: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= this.limits.perClient)
      throw new QueueRefusal(
        429,
        `this client already has ${mine} heavy request(s) running or waiting (at most ${this.limits.perClient}); retry when one has answered`,
        this.retryAfterS(this.line.length),
      );
    if (this.running >= this.limits.running && this.line.length >= this.limits.waiting)
      throw new QueueRefusal(
        503,
        `the server is busy: ${this.running} heavy request(s) running and ${this.line.length} waiting`,
        this.retryAfterS(this.line.length),
      );
    this.perClient.set(client, mine + 1);
    try {
      if (this.running >= this.limits.running) await this.wait(client, signal);
      else this.running++;
      const started = Date.now();
      try {
        return await job();
      } finally {
        this.typicalMs = 0.8 * this.typicalMs + 0.2 * (Date.now() - started);
        this.running--;
        this.next();
      }
    } finally {
      const n = (this.perClient.get(client) ?? 1) - 1;
      if (n <= 0) this.perClient.delete(client);
      else this.perClient.set(client, n);
    }
  }

  private wait(client: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const w: Waiting = {
        client,
        start: () => {
          clearTimeout(w.timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: (e) => {
          clearTimeout(w.timer);
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      const leave = (e: Error) => {
        const i = this.line.indexOf(w);
        if (i >= 0) this.line.splice(i, 1);
        w.fail(e);
      };
      const onAbort = () => leave(new Error('the client went away'));
      w.timer = setTimeout(
        () =>
          leave(
            new QueueRefusal(
              503,
              `the server stayed busy for ${Math.round(this.limits.maxWaitMs / 1000)} s: this request waited its longest`,
              this.retryAfterS(this.line.length),
            ),
          ),
        this.limits.maxWaitMs,
      );
      if (signal?.aborted) return leave(new Error('the client went away'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(w);
    });
  }

  private next(): void {
    const w = this.line.shift();
    if (!w) return;
    this.running++;
    w.start();
  }
}
