/**
 * The CLI from source as one real process (node with tsx's loader, no pnpm or tsx wrapper in
 * between, so a signal sent to it reaches the CLI itself), for tests of signals, exits and what
 * a run prints while it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/retryStudio.ts', import.meta.url));

export interface CliProcess {
  readonly child: ChildProcess;
  /** what it wrote so far */
  out(): string;
  err(): string;
  /** resolves once stderr (or stdout) holds `text`; rejects when the process ends first or after `ms` */
  waitFor(text: string | RegExp, ms?: number): Promise<void>;
  /** the exit: code, or 128 + the signal's number when a signal ended it without a handler */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface CliProcessOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** more node options (`--import data:...` to run something inside the CLI's process) */
  readonly nodeArgs?: readonly string[];
}

export function startCli(args: readonly string[], o: CliProcessOptions = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), ...(o.nodeArgs ?? []), BIN, ...args], {
    env: { ...process.env, ...o.env, RETRY_STUDIO_PROG: 'retry-studio' },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(o.cwd ? { cwd: o.cwd } : {}),
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout!.on('data', (b: Buffer) => ((out += b.toString()), wake()));
  child.stderr!.on('data', (b: Buffer) => ((err += b.toString()), wake()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
      wake();
    }),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    waitFor(text, ms = 60_000) {
      const seen = () => (typeof text === 'string' ? (err + out).includes(text) : text.test(err + out));
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`not seen within ${ms} ms: ${String(text)}\n${err}`)), ms);
        const finish = (e?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (e) reject(e);
          else resolve();
        };
        const check = () => {
          if (seen()) finish();
          else if (ended) finish(new Error(`the process ended before ${String(text)}:\n${err}`));
        };
        waiters.add(check);
        check();
      });
    },
  };
}
