/**
 * A framework runner as a child process speaking prove-app's line protocol: events on stdout as
 * `PROVE <job> <json>` (the rest of stdout and stderr is the framework's log, its last lines kept to
 * show when it fails), commands on stdin as `start <job> <spec>`, `stop <job>`, `quit`. One process
 * may run many jobs (the Spring JVM) or one (Celery, Rascal, NestJS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type RunnerEvent =
  | { readonly event: 'runner'; readonly [k: string]: unknown }
  | { readonly event: 'started' }
  | { readonly event: 'published'; readonly t: number }
  | {
      readonly event: 'attempt';
      readonly t: number;
      readonly queue: string;
      readonly body: string;
      readonly deliveryTag: unknown;
      readonly redelivered: unknown;
      readonly headers: unknown;
      readonly xDeath: unknown;
      readonly failed: boolean;
    }
  | { readonly event: 'error'; readonly message: string }
  | { readonly event: 'stopped' }
  | { readonly event: 'exited'; readonly code: number | null; readonly signal: string | null };

const LOG_LINES_KEPT = 400;

export class RunnerProcess {
  private readonly child: ChildProcess;
  private readonly listeners = new Map<string, (e: RunnerEvent) => void>();
  private readonly log: string[] = [];
  /** what the runner said about itself (its framework version) */
  info: Record<string, unknown> = {};
  private exited: { code: number | null; signal: string | null } | undefined;
  readonly ready: Promise<void>;

  constructor(command: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let announced: () => void = () => undefined;
    this.ready = new Promise<void>((resolve) => (announced = resolve));
    this.child.on('error', (err) => {
      announced();
      this.onExit(null, null, `could not start ${command}: ${err.message}`);
    });
    this.child.on('exit', (code, signal) => {
      announced();
      this.onExit(code, signal);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const m = /^PROVE (\S+) (\{.*\})$/.exec(line);
      if (!m) return this.keep(line);
      let e: RunnerEvent;
      try {
        e = JSON.parse(m[2]!) as RunnerEvent;
      } catch {
        return this.keep(line);
      }
      if (e.event === 'runner') {
        this.info = e;
        announced();
      } else this.listeners.get(m[1]!)?.(e);
    });
    createInterface({ input: this.child.stderr! }).on('line', (line) => this.keep(line));
  }

  private keep(line: string): void {
    this.log.push(line);
    if (this.log.length > LOG_LINES_KEPT) this.log.shift();
  }

  private onExit(code: number | null, signal: string | null, why?: string): void {
    if (this.exited) return;
    this.exited = { code, signal };
    if (why) this.keep(why);
    for (const l of this.listeners.values()) l({ event: 'exited', code, signal });
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  /** the framework's last log lines, stack frames left out (the messages say what happened) */
  logTail(lines = 25): string {
    return this.log
      .filter((l) => !/^\s+at |^\s*\.\.\. \d+ (more|common frames)/.test(l))
      .slice(-lines)
      .join('\n');
  }

  send(line: string): void {
    if (this.alive) this.child.stdin!.write(line + '\n');
  }

  /** events of one job, until `off` */
  on(job: string, fn: (e: RunnerEvent) => void): () => void {
    this.listeners.set(job, fn);
    if (this.exited) fn({ event: 'exited', ...this.exited });
    return () => this.listeners.delete(job);
  }

  /** asks it to quit, then kills it if it has not within `graceMs` */
  async quit(graceMs = 5000): Promise<void> {
    if (!this.alive) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.send('quit');
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}
