/**
 * Rascal (npm `rascal`): the user's configuration JSON runs as it is, its vhost's connection pointed
 * at the throwaway vhost; the subscription's handler fails as told and recovers with the strategy
 * import-app read (the application passes it to ackOrNack in code), Rascal's default without one.
 * While import-app does not read Rascal, its subscriptions are run without a prediction.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { consumerNodeId, sourceSetting } from '@retry-studio/topology-core/model';
import type { AmqpUrl } from '../broker/index.js';
import type { FrameworkRunner, ProofChannel, ProofFile } from './frameworkRunner.js';
import { NODE_RUNNERS_DIR, startNodeJob } from './nodeRunnerJob.js';
import { INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';

interface RascalVhost {
  readonly queues?: Record<string, unknown> | readonly string[];
  readonly subscriptions?: Record<string, { readonly queue?: string; readonly vhost?: string }>;
}
interface RascalConfig {
  readonly vhosts?: Record<string, RascalVhost>;
}

const parse = (f: ProofFile): RascalConfig | undefined => {
  if (!/\.json$/i.test(f.name)) return undefined;
  try {
    const v = JSON.parse(f.text) as unknown;
    return v !== null && typeof v === 'object' && 'vhosts' in v ? (v as RascalConfig) : undefined;
  } catch {
    return undefined;
  }
};

/** the subscriptions of a Rascal configuration, each with its vhost key and queue */
export function rascalSubscriptions(c: RascalConfig): { vhost: string; name: string; queue: string }[] {
  const out: { vhost: string; name: string; queue: string }[] = [];
  for (const [vhost, v] of Object.entries(c.vhosts ?? {}))
    for (const [name, s] of Object.entries(v.subscriptions ?? {}))
      if (typeof s?.queue === 'string') out.push({ vhost, name, queue: s.queue });
  return out;
}

export const amqpUrlText = (u: AmqpUrl): string =>
  `${u.protocol}://${encodeURIComponent(u.username)}:${encodeURIComponent(u.password)}@${u.hostname}:${u.port}/${encodeURIComponent(u.vhost)}`;

const recoveryOf = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export const RASCAL_RUNNER: FrameworkRunner = {
  framework: 'rascal',
  label: 'Rascal',
  declaresTopology: true,
  absent: () => {
    if (!existsSync(path.join(NODE_RUNNERS_DIR, 'rascalRunner.mjs'))) return NOT_IN_PACKAGE;
    try {
      createRequire(import.meta.url).resolve('rascal');
      return undefined;
    } catch {
      return `Rascal is not installed (a devDependency of the server): pnpm install, or ${INSTALL_HINT}`;
    }
  },
  recognises: (f) => parse(f) !== undefined && rascalSubscriptions(parse(f)!).length > 0,
  channelsWithoutReading: (files): ProofChannel[] =>
    files.flatMap((f) =>
      rascalSubscriptions(parse(f) ?? {}).map((s) => ({
        consumer: s.name,
        queue: s.queue,
        publish: { exchange: '', routingKey: s.queue },
        body: `${s.name}-1`,
      })),
    ),
  start: (ctx) => {
    const file = ctx.files.find((f) => parse(f) !== undefined);
    const config = file ? parse(file)! : {};
    const sub = rascalSubscriptions(config).find(
      (s) => s.name === ctx.channel.consumer || s.queue === ctx.channel.queue,
    );
    const src = ctx.design?.sources?.[consumerNodeId(ctx.channel.consumer)];
    return startNodeJob(
      'rascalRunner.mjs',
      ctx.workDir,
      () => ({
        url: amqpUrlText(ctx.amqp),
        config,
        vhostKey: sub?.vhost ?? Object.keys(config.vhosts ?? {})[0] ?? '/',
        subscription: sub?.name ?? ctx.channel.consumer,
        queue: ctx.channel.queue,
        recovery: recoveryOf(sourceSetting(src, 'recovery')?.value),
        failFirst: ctx.failure.kind === 'always' ? -1 : ctx.failure.n,
      }),
      'rascalVersion',
    );
  },
};
