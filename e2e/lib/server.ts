/** Builds the web app and starts the real server (which serves apps/web/dist) on a free port. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function buildWeb(): void {
  const r = spawnSync('pnpm', ['--filter', '@retry-studio/web', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`web build failed:\n${r.stdout}\n${r.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

export async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const log: string[] = [];
  const proc = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    cwd: join(ROOT, 'apps', 'server'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (b) => log.push(String(b)));
  proc.stderr!.on('data', (b) => log.push(String(b)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${log.join('')}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${log.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    proc,
    log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000);
      }),
  };
}
