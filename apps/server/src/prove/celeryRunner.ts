/**
 * Celery 5: a worker and the task in one Python process per job (runners/celery/runner.py), in a
 * virtual environment of its own (runners/celery/.venv, from requirements.txt, made on first use).
 * The task takes the retry options import-app read (the decorator's or the base class's literals),
 * the app the settings; the runner applies the task itself once its worker consumes.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { consumerNodeId } from '@retry-studio/topology-core/model';
import type { AmqpUrl } from '../broker/index.js';
import type { FrameworkRunner, JobContext, RunningJob } from './frameworkRunner.js';
import { RunnerProcess, type RunnerEvent } from './runnerProcess.js';
import { hasCommand, INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';

export const CELERY_DIR = fileURLToPath(new URL('./runners/celery/', import.meta.url));
const PYTHON = path.join(CELERY_DIR, '.venv', 'bin', 'python');
/** the requirements the environment was made from (scripts/ensure-provers.sh writes the same) */
const STAMP = path.join(CELERY_DIR, '.venv', 'prove-requirements.txt');

/** Makes the virtual environment with the pinned Celery (once; later runs find it). */
export function prepareCelery(): void {
  const wanted = readFileSync(path.join(CELERY_DIR, 'requirements.txt'), 'utf8');
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) return;
  rmSync(path.join(CELERY_DIR, '.venv'), { recursive: true, force: true });
  const venv = spawnSync('python3', ['-m', 'venv', '.venv'], { cwd: CELERY_DIR, encoding: 'utf8' });
  const pip =
    venv.status === 0
      ? spawnSync(PYTHON, ['-m', 'pip', 'install', '-q', '-r', 'requirements.txt'], {
          cwd: CELERY_DIR,
          encoding: 'utf8',
        })
      : venv;
  if (pip.status !== 0) throw new Error(`installing Celery failed:\n${(pip.stdout + pip.stderr).slice(-3000)}`);
  writeFileSync(STAMP, wanted);
}

/** Celery's broker URL: pyamqp with the vhost percent-encoded */
export const celeryBrokerUrl = (u: AmqpUrl): string =>
  `pyamqp://${encodeURIComponent(u.username)}:${encodeURIComponent(u.password)}@${u.hostname}:${u.port}/${encodeURIComponent(u.vhost)}${u.protocol === 'amqps' ? '?ssl=true' : ''}`;

async function startCeleryJob(ctx: JobContext): Promise<RunningJob> {
  prepareCelery();
  const job = randomBytes(4).toString('hex');
  const src = ctx.design?.sources?.[consumerNodeId(ctx.channel.consumer)];
  const settings: Record<string, string> = {};
  for (const s of src?.settings ?? []) if (s.line !== undefined) settings[s.key] = s.value;
  const spec = path.join(ctx.workDir, `celery-${job}.json`);
  writeFileSync(
    spec,
    JSON.stringify({
      job,
      brokerUrl: celeryBrokerUrl(ctx.amqp),
      queue: ctx.channel.queue,
      task: ctx.channel.consumer,
      body: ctx.channel.body,
      settings,
      failFirst: ctx.failure.kind === 'always' ? -1 : ctx.failure.n,
    }),
  );
  const p = new RunnerProcess(PYTHON, [path.join(CELERY_DIR, 'runner.py'), spec], { cwd: CELERY_DIR });
  await p.ready;
  let listener: (e: RunnerEvent) => void = () => undefined;
  p.on(job, (e) => listener(e));
  return {
    version: String(p.info.celeryVersion ?? 'unknown'),
    on: (fn) => (listener = fn),
    logTail: () => p.logTail(),
    stop: () => p.quit(),
  };
}

export const CELERY_RUNNER: FrameworkRunner = {
  framework: 'celery',
  label: 'Celery',
  declaresTopology: true,
  publishesItself: true,
  absent: () =>
    !existsSync(path.join(CELERY_DIR, 'runner.py'))
      ? NOT_IN_PACKAGE
      : existsSync(PYTHON) || hasCommand('python3')
        ? undefined
        : `Celery needs Python 3 (python3 is not on PATH): ${INSTALL_HINT}`,
  isPlumbing: (q) => q.endsWith('.pidbox') || q.startsWith('celeryev.'),
  start: startCeleryJob,
};
