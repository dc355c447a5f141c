/**
 * Rascal (npm `rascal`): the user's configuration as import-app evaluated it (a JSON file, or a
 * JavaScript/TypeScript module's literal with its constants and environment), its vhost's
 * connection pointed at the throwaway vhost; the subscription's handler fails as told and passes
 * ackOrNack the recovery import-app read (the configuration's strategies or the one the code
 * passes), Rascal's own default without one. The adapter only carries the reading over.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AmqpUrl } from '../broker/index.js';
import type { FrameworkRunner } from './frameworkRunner.js';
import { NODE_RUNNERS_DIR, startNodeJob } from './nodeRunnerJob.js';
import { ProofError } from './proofError.js';
import { INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';

export const amqpUrlText = (u: AmqpUrl): string =>
  `${u.protocol}://${encodeURIComponent(u.username)}:${encodeURIComponent(u.password)}@${u.hostname}:${u.port}/${encodeURIComponent(u.vhost)}`;

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
  start: (ctx) => {
    const r = ctx.runnable;
    if (!r?.config) throw new ProofError(`${ctx.channel.consumer}: import-app read no Rascal configuration to run`);
    return startNodeJob(
      'rascalRunner.mjs',
      ctx.workDir,
      () => ({
        url: amqpUrlText(ctx.amqp),
        config: r.config,
        vhostKey: r.vhost,
        subscription: r.subscription,
        queue: ctx.channel.queue,
        recovery: r.recovery,
        failFirst: ctx.failure.kind === 'always' ? -1 : ctx.failure.n,
      }),
      'rascalVersion',
    );
  },
};
