/** A Node.js runner (runners/node/*.mjs) as one child process per job, its dependencies the server's own. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { RunningJob } from './frameworkRunner.js';
import { RunnerProcess, type RunnerEvent } from './runnerProcess.js';

export const NODE_RUNNERS_DIR = fileURLToPath(new URL('./runners/node/', import.meta.url));

export async function startNodeJob(
  script: string,
  workDir: string,
  spec: (job: string) => Record<string, unknown>,
  versionKey: string,
): Promise<RunningJob> {
  const job = randomBytes(4).toString('hex');
  const specFile = path.join(workDir, `${script}-${job}.json`);
  writeFileSync(specFile, JSON.stringify({ job, ...spec(job) }));
  const p = new RunnerProcess(process.execPath, [path.join(NODE_RUNNERS_DIR, script), specFile], {
    cwd: NODE_RUNNERS_DIR,
  });
  await p.ready;
  let listener: (e: RunnerEvent) => void = () => undefined;
  p.on(job, (e) => listener(e));
  return {
    version: String(p.info[versionKey] ?? 'unknown'),
    on: (fn) => (listener = fn),
    logTail: () => p.logTail(),
    stop: () => p.quit(),
  };
}

/** whether a package the runner imports is installed (pnpm install puts it in the server's devDependencies) */
export async function hasPackage(name: string): Promise<boolean> {
  try {
    await import(name);
    return true;
  } catch {
    return false;
  }
}
