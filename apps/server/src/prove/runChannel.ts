/**
 * One channel proved in its throwaway vhost: the topology declared where the framework declares
 * none, the framework started with a listener failing as told, the message sent once the listener
 * consumes, every attempt watched, the end read from the broker, the framework stopped.
 */
import type { ChannelModel } from 'amqplib';
import type { Design } from '@retry-studio/topology-core/model';
import type { RunnableConsumer } from '@retry-studio/topology-core/appconfig';
import {
  NEVER_CONSUMES,
  observedEnd,
  type ChannelPrediction,
  type ChannelRun,
  type EndFacts,
  type ProofFailure,
} from '@retry-studio/topology-core/prove';
import { openConnection, withVhost, type AmqpUrl, type ManagementClient } from '../broker/index.js';
import { declarePolicy, declareTopology } from '../deploy/declareTopology.js';
import type { FrameworkRunner, ProofChannel, ProofFile, RunningJob } from './frameworkRunner.js';
import type { RunnerEvent } from './runnerProcess.js';
import { readEndFacts } from './endState.js';
import { predictedWatchMs, watchRun, type ObservedAttempt } from './watchRun.js';
import { ProofError } from './proofError.js';

export interface ChannelJob {
  readonly runner: FrameworkRunner;
  readonly design: Design | undefined;
  /** what the real framework is handed to run this consumer, as import-app evaluated the file (Rascal, NestJS) */
  readonly runnable?: RunnableConsumer | undefined;
  readonly files: readonly ProofFile[];
  readonly url: AmqpUrl;
  readonly vhost: string;
  readonly management: ManagementClient;
  readonly channel: ProofChannel;
  readonly prediction: ChannelPrediction | undefined;
  readonly failure: ProofFailure;
  readonly springProfiles: readonly string[];
  readonly workDir: string;
  readonly maxRunMs: number;
  readonly progress?: (line: string) => void;
}

export interface ChannelOutcome {
  readonly version: string;
  readonly observed: ChannelRun & { readonly log: readonly ObservedAttempt[] };
  readonly endFacts: EndFacts;
}

/** the harness's own connections (declare, publish): a busy shared broker took more than 5 s to shake hands */
const CONNECT = { purpose: 'cli', label: 'prove-app', timeoutMs: 20_000 } as const;
/** between two looks at the queue's consumers (a shared management API is not to be hammered) */
const CONSUMING_POLL_MS = 1000;
/** how long the framework may take to start and consume from its queue */
export const START_TIMEOUT_MS = 90_000;
/** once started, how long a listener predicted never to consume is watched for a consumer */
export const NEVER_CONSUMES_GRACE_MS = 20_000;

async function declareDesign(j: ChannelJob): Promise<void> {
  const conn = await openConnection(withVhost(j.url, j.vhost), CONNECT);
  try {
    await declareTopology(conn, j.design!.topology);
  } finally {
    await conn.close().catch(() => undefined);
  }
  for (const p of j.design!.topology.policies ?? []) await declarePolicy(j.management, j.vhost, p);
}

/**
 * Publishes the message and returns the connection, open: a channel's counters reach the
 * management API only at its next statistics emission, and a channel closed before that loses
 * its publish from the vhost's count (seen on 3.10).
 */
async function publish(j: ChannelJob): Promise<ChannelModel> {
  const to = j.channel.publish!;
  const conn = await openConnection(withVhost(j.url, j.vhost), CONNECT);
  try {
    const ch = await conn.createConfirmChannel();
    ch.publish(to.exchange, to.routingKey, Buffer.from(j.channel.body), {
      persistent: true,
      messageId: j.channel.body,
      contentType: 'text/plain',
    });
    await ch.waitForConfirms();
    return conn;
  } catch (e) {
    await conn.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Resolves once the listener consumes from the channel's queue (true), the framework's error or exit
 * rejects. A prediction that it never consumes (its queue refused) is seen true when the framework
 * has started and NEVER_CONSUMES_GRACE_MS pass with no consumer (false); otherwise not consuming
 * within START_TIMEOUT_MS is the framework's failure to start.
 */
async function consuming(
  j: ChannelJob,
  state: { failed: () => string | undefined; startedAt: () => number | undefined },
  logTail: () => string,
): Promise<boolean> {
  const until = Date.now() + START_TIMEOUT_MS;
  const expectNever = j.prediction?.end === NEVER_CONSUMES;
  for (;;) {
    const why = state.failed();
    if (why !== undefined) throw new ProofError(why);
    // Spring Cloud Stream's anonymous groups add a random suffix: `<destination>.anonymous.<id>`
    const qs = await j.management.listQueues(j.vhost).catch(() => []);
    const q = qs.find((x) => x.name === j.channel.queue) ?? qs.find((x) => x.name.startsWith(`${j.channel.queue}.`));
    if ((q?.consumers ?? 0) > 0) return true;
    const started = state.startedAt();
    if (expectNever && started !== undefined && Date.now() - started > NEVER_CONSUMES_GRACE_MS) return false;
    if (Date.now() > until) {
      if (expectNever) return false;
      throw new ProofError(
        `${j.runner.label} did not consume from ${j.channel.queue} within ${START_TIMEOUT_MS / 1000} s; its log ends:\n${logTail()}`,
      );
    }
    await new Promise((r) => setTimeout(r, CONSUMING_POLL_MS));
  }
}

/** The listener never consumed, as predicted: nothing is sent (the end is the framework's, not a message's). */
async function neverConsumed(j: ChannelJob, job: RunningJob): Promise<ChannelOutcome> {
  const endFacts = await readEndFacts(j.management, j.vhost, {
    lastAt: Date.now(),
    lastSucceeded: false,
    stillGoing: false,
    isPlumbing: j.runner.isPlumbing ?? (() => false),
  });
  j.progress?.(`${j.channel.consumer}: ${j.runner.label} never consumed from ${j.channel.queue} in ${j.vhost}`);
  return { version: job.version, endFacts, observed: { attempts: 0, delaysMs: [], end: NEVER_CONSUMES, log: [] } };
}

export async function runChannel(j: ChannelJob): Promise<ChannelOutcome> {
  const needed = predictedWatchMs(j.prediction);
  if (needed > j.maxRunMs)
    throw new ProofError(
      `${j.channel.consumer}: the prediction needs ${Math.ceil(needed / 1000)} s of watching, more than --max-run-ms ${j.maxRunMs} allows`,
    );
  if (!j.runner.declaresTopology && j.design) await declareDesign(j);
  const job: RunningJob = await j.runner.start({
    design: j.design,
    ...(j.runnable ? { runnable: j.runnable } : {}),
    files: j.files,
    amqp: withVhost(j.url, j.vhost),
    channel: j.channel,
    failure: j.failure,
    springProfiles: j.springProfiles,
    workDir: j.workDir,
  });
  let handler: (e: RunnerEvent) => void = () => undefined;
  let failure: string | undefined;
  let publishedAt: number | undefined;
  let startedAt: number | undefined;
  const early: RunnerEvent[] = [];
  let publisher: ChannelModel | undefined;
  job.on((e) => handler(e));
  handler = (e) => {
    if (e.event === 'error') failure = `${j.runner.label} did not start:\n${e.message}`;
    else if (e.event === 'exited') failure = `${j.runner.label} exited (code ${e.code}):\n${job.logTail()}`;
    else if (e.event === 'published') publishedAt = e.t;
    else if (e.event === 'started') startedAt = Date.now();
    else if (e.event === 'attempt') early.push(e);
  };
  try {
    const consumes = await consuming(j, { failed: () => failure, startedAt: () => startedAt }, () => job.logTail());
    if (!consumes) return neverConsumed(j, job);
    j.progress?.(`${j.channel.consumer}: ${j.runner.label} consumes from ${j.channel.queue} in ${j.vhost}`);
    if (j.channel.publish) {
      publishedAt = Date.now();
      publisher = await publish(j);
    } else
      while (publishedAt === undefined) {
        if (failure) throw new ProofError(failure);
        await new Promise((r) => setTimeout(r, 50));
      }
    const limit = Math.min(j.maxRunMs, Math.max(60_000, needed * 1.5 + 30_000));
    const watched = await watchRun(
      (fn) => {
        handler = fn;
        for (const e of early.splice(0)) fn(e);
      },
      publishedAt!,
      j.prediction,
      limit,
    ).catch((e: Error) => {
      throw new ProofError(`${j.runner.label} failed while running:\n${e.message}\n${job.logTail()}`);
    });
    const last = watched.attempts.at(-1);
    const endFacts = await readEndFacts(j.management, j.vhost, {
      lastAt: watched.lastAt,
      lastSucceeded: last !== undefined && !last.failed,
      stillGoing: watched.stillGoing,
      isPlumbing: j.runner.isPlumbing ?? (() => false),
    });
    const ts = watched.attempts.map((a) => a.t);
    return {
      version: job.version,
      endFacts,
      observed: {
        attempts: watched.attempts.length,
        delaysMs: ts.slice(1).map((t, i) => t - ts[i]!),
        end: observedEnd(endFacts),
        log: watched.attempts,
      },
    };
  } finally {
    await publisher?.close().catch(() => undefined);
    await job.stop();
  }
}
