/**
 * A job whose start failed in a runner process that had run other jobs is started once more in a fresh
 * process. One clean run's Spring Cloud Stream JVM, after a 76 s case on RabbitMQ 4.3, failed the next eight
 * starts within a second each ("IllegalStateException: java.util.NoSuchElementException"), cases that passed
 * when run again; a start that fails in a fresh process is the framework's answer, and is not tried again.
 */
import type { RunningJob } from './frameworkRunner.js';
import type { RunnerEvent } from './runnerProcess.js';

export interface StartTry {
  /** starts the job in the runner process the flavour has now */
  start(): Promise<RunningJob>;
  /** the process the last start used had run other jobs before it */
  usedBefore(): boolean;
  /**
   * the process the last start used is replaced, if it is still the flavour's: the next start spawns a fresh
   * one (the old one's running jobs go on); jobs failing together in one process retire it once
   */
  retire(): void;
  /** said when the start is tried again */
  note(why: string): void;
}

export async function startedAgainIfStale(t: StartTry): Promise<RunningJob> {
  let current = await t.start();
  let retried = !t.usedBefore();
  let started = false;
  let listener: (e: RunnerEvent) => void = () => undefined;
  const forward = (e: RunnerEvent) => {
    if (e.event === 'started') started = true;
    if (e.event !== 'error' || started || retried) return listener(e);
    retried = true;
    t.note(`did not start in a runner that had run other jobs; starting it in a fresh one:\n${e.message}`);
    t.retire();
    t.start().then(
      (again) => {
        current = again;
        again.on(forward);
      },
      (err: Error) => listener({ event: 'error', message: err.message }),
    );
  };
  current.on(forward);
  return {
    version: current.version,
    on: (fn) => (listener = fn),
    stop: () => current.stop(),
    logTail: () => current.logTail(),
  };
}
