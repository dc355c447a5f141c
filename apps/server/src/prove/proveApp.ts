/**
 * prove-app: import-app's reading of an application's retry configuration, checked by running the
 * real framework with that configuration against a real broker. Per channel (consumer and queue),
 * in a throwaway vhost of its own (deleted whatever happens): the framework starts with a listener
 * that fails as told, one message is sent, every attempt is recorded, and where the message ends
 * is read from the broker; then import-app's prediction is set beside what happened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppConfigFailure, importAppConfig, type RunnableConsumer } from '@retry-studio/topology-core/appconfig';
import {
  isAppFramework,
  sourceSetting,
  type AppFramework,
  type BrokerProfileId,
  type Design,
} from '@retry-studio/topology-core/model';
import {
  compareChannel,
  predictChannels,
  type ChannelPrediction,
  type ChannelRun,
  type ProofFailure,
} from '@retry-studio/topology-core/prove';
import { ManagementError, type AmqpUrl, type ManagementClient } from '../broker/index.js';
import { inThrowawayVhost } from '../upgrade/throwawayVhost.js';
import { verifyTarget } from '../upgrade/verifyUpgrade.js';
import type { FrameworkRunner, ProofChannel, ProofFile } from './frameworkRunner.js';
import { runnerFor } from './frameworkRunners.js';
import { runChannel } from './runChannel.js';
import type { ObservedAttempt } from './watchRun.js';
import { ProofError } from './proofError.js';
import { MANAGEMENT_TRIES, retryRead } from './managementRetry.js';

export { ProofError };

export interface ProveRequest {
  readonly files: readonly ProofFile[];
  readonly framework?: string;
  /** which Spring Boot runs a Spring Boot configuration (default 3.5) */
  readonly springBoot?: string;
  readonly url: AmqpUrl;
  readonly managementUrl?: string;
  readonly failure: ProofFailure;
  /** the longest a channel may be watched (default 10 min) */
  readonly maxRunMs?: number;
  readonly springProfiles?: readonly string[];
  /** the throwaway vhosts' prefix (default rs-prove) */
  readonly vhostPrefix?: string;
  readonly progress?: (line: string) => void;
}

export interface ChannelProof {
  readonly consumer: string;
  readonly queue: string;
  readonly predicted: ChannelRun & { readonly jitter: boolean };
  readonly observed: ChannelRun & { readonly log: readonly ObservedAttempt[] };
  readonly agree: boolean;
  readonly differences: readonly string[];
  readonly vhost: string;
  readonly cleanedUp: boolean;
}

export interface ProofReport {
  readonly framework: string;
  readonly runner: string;
  /** the framework's version as it ran */
  readonly version: string;
  readonly broker: { readonly version: string; readonly profile: BrokerProfileId };
  readonly failure: ProofFailure;
  readonly channels: readonly ChannelProof[];
}

export const DEFAULT_MAX_RUN_MS = 10 * 60_000;

interface Reading {
  readonly framework: string;
  readonly design: Design;
  /** consumer id -> what the real framework is handed to run it (Rascal, NestJS) */
  readonly runnable: { readonly [consumerId: string]: RunnableConsumer };
}

/** import-app's reading of the files, as the broker line and the Boot line run it; a file it cannot read is the question's fault. */
function readFiles(req: ProveRequest, profile: BrokerProfileId): Reading {
  const fw = req.framework;
  try {
    const app = importAppConfig(
      req.files.map((f) => ({ name: f.name, text: f.text })),
      {
        ...(fw !== undefined && isAppFramework(fw) ? { framework: fw as AppFramework } : {}),
        ...(req.springProfiles?.length ? { springProfiles: req.springProfiles } : {}),
        // the Boot line that runs is the one import-app reads the file as
        ...(req.springBoot !== undefined ? { springBoot: req.springBoot } : {}),
        profile,
      },
    );
    return { framework: fw ?? app.frameworks[0]!, design: app.design, runnable: app.runnable ?? {} };
  } catch (e) {
    if (e instanceof AppConfigFailure) throw new ProofError(e.message);
    throw e;
  }
}

/** Not told which Boot runs: the line import-app read the file as (Boot 4 for a file that writes only max-retries). */
function bootLineRead(design: Design | undefined): string | undefined {
  const said = Object.values(design?.sources ?? {})
    .map((s) => sourceSetting(s, 'Spring Boot')?.value)
    .find((v) => v !== undefined);
  return said?.startsWith('4') ? '4.0' : undefined;
}

function channelsOf(
  runner: FrameworkRunner,
  design: Design,
  predictions: readonly ChannelPrediction[],
): { channel: ProofChannel; prediction: ChannelPrediction }[] {
  return predictions.map((p) => {
    const pub = design.publishers.find((x) => x.id === p.message.publisher);
    return {
      channel: {
        consumer: p.consumer,
        queue: p.queue,
        body: p.message.body,
        ...(pub && !runner.publishesItself ? { publish: { exchange: pub.exchange, routingKey: pub.routingKey } } : {}),
      },
      prediction: p,
    };
  });
}

/**
 * A throwaway vhost, made again when the management API did not answer while making it (a busy
 * shared broker); a failure once the framework runs is not tried again.
 */
async function throwawayVhostRetried<T>(
  mgmt: ManagementClient,
  label: string,
  prefix: string,
  fn: (vhost: string) => Promise<T>,
): Promise<{ vhost: string; result: T; cleanedUp: boolean }> {
  for (let i = 1; ; i++) {
    let started = false;
    try {
      return await inThrowawayVhost(
        mgmt,
        label,
        (vhost) => {
          started = true;
          return fn(vhost);
        },
        prefix,
      );
    } catch (e) {
      if (started || !(e instanceof ManagementError) || i >= MANAGEMENT_TRIES) throw e;
      await new Promise((r) => setTimeout(r, 1000 * i));
    }
  }
}

export async function proveApp(req: ProveRequest): Promise<ProofReport> {
  const target = await retryRead(() => verifyTarget(req.url, req.managementUrl));
  const reading = readFiles(req, target.profile);
  const runner = runnerFor(reading.framework, req.springBoot ?? bootLineRead(reading.design));
  const absent = runner.absent();
  if (absent) throw new ProofError(absent);
  const channels = channelsOf(runner, reading.design, predictChannels(reading.design, req.failure));
  if (channels.length === 0)
    throw new ProofError(
      `import-app predicts no message reaching a consumer in ${req.files.map((f) => f.name).join(', ')}`,
    );
  const maxRunMs = req.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'retry-studio-prove-'));
  let version = 'unknown';
  try {
    // every channel settles (its vhost deleted) before a failure is reported
    const settled = await Promise.allSettled(
      channels.map(async ({ channel, prediction }) => {
        const run = await throwawayVhostRetried(
          target.management,
          runner.framework,
          req.vhostPrefix ?? 'rs-prove',
          (vhost) =>
            runChannel({
              runner,
              design: reading.design,
              runnable: reading.runnable[channel.consumer],
              files: req.files,
              url: req.url,
              vhost,
              management: target.management as ManagementClient,
              channel,
              prediction,
              failure: req.failure,
              springProfiles: req.springProfiles ?? [],
              workDir,
              maxRunMs,
              ...(req.progress ? { progress: req.progress } : {}),
            }),
        );
        version = run.result.version;
        const observed = run.result.observed;
        const cmp = compareChannel(prediction, observed);
        return {
          consumer: channel.consumer,
          queue: channel.queue,
          predicted: {
            attempts: prediction.attempts,
            delaysMs: prediction.delaysMs,
            end: prediction.end,
            jitter: prediction.jitter,
          },
          observed,
          agree: cmp.agree,
          differences: cmp.differences,
          vhost: run.vhost,
          cleanedUp: run.cleanedUp,
        } satisfies ChannelProof;
      }),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const proofs = settled.map((s) => (s as PromiseFulfilledResult<ChannelProof>).value);
    return {
      framework: reading.framework,
      runner: runner.label,
      version,
      broker: { version: target.version, profile: target.profile },
      failure: req.failure,
      channels: proofs,
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
