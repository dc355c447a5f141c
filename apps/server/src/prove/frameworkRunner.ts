/**
 * A framework that prove-app runs for real: one registered object each (frameworkRunners.ts lists
 * them). It says whether its runtime is here, builds a job from import-app's reading and the
 * user's files, and runs it against the throwaway vhost.
 */
import type { Design } from '@retry-studio/topology-core/model';
import type { RunnableConsumer } from '@retry-studio/topology-core/appconfig';
import type { ProofFailure } from '@retry-studio/topology-core/prove';
import type { AmqpUrl } from '../broker/index.js';
import type { RunnerEvent } from './runnerProcess.js';

/** one file the user named: as given (shown) and its absolute path (handed to the framework) */
export interface ProofFile {
  readonly name: string;
  readonly path: string;
  readonly text: string;
}

/** the channel a job proves: the consumer, its queue, and the message to send it */
export interface ProofChannel {
  readonly consumer: string;
  readonly queue: string;
  /** where the harness publishes the message (absent: the runner publishes it, Celery's apply_async) */
  readonly publish?: { readonly exchange: string; readonly routingKey: string };
  readonly body: string;
}

export interface JobContext {
  /** import-app's reading (undefined in a runner's own checks, with the framework's defaults) */
  readonly design: Design | undefined;
  /** what the real framework is handed to run the channel's consumer, as import-app evaluated the file (Rascal, NestJS) */
  readonly runnable?: RunnableConsumer;
  readonly files: readonly ProofFile[];
  /** the broker, its vhost the throwaway one */
  readonly amqp: AmqpUrl;
  readonly channel: ProofChannel;
  readonly failure: ProofFailure;
  readonly springProfiles: readonly string[];
  /** a directory of its own for spec files, removed after */
  readonly workDir: string;
}

export interface RunningJob {
  /** the framework's version as the runner reports it */
  readonly version: string;
  /** events of this job until it stops */
  on(fn: (e: RunnerEvent) => void): void;
  stop(): Promise<void>;
  /** the framework's last log lines (shown when it fails) */
  logTail(): string;
}

export interface FrameworkRunner {
  /** as --framework names it */
  readonly framework: string;
  /** a variant of a framework (Spring Boot 3.5 / 4.0), as --spring-boot names it */
  readonly variant?: string;
  readonly label: string;
  /** the framework declares its own queues and exchanges (else the harness declares import-app's topology first) */
  readonly declaresTopology: boolean;
  /** the runner sends the message itself (a Celery task is applied, not published by hand) */
  readonly publishesItself?: boolean;
  /** why it cannot run on this machine and how to install it; undefined: it can */
  absent(): string | undefined;
  /** queues of the framework's own plumbing, left out of the message's end (Celery's pidbox, reply queues) */
  isPlumbing?(queue: string): boolean;
  start(ctx: JobContext): Promise<RunningJob>;
}
