/**
 * NestJS with @golevelup/nestjs-rabbitmq (pinned, devDependencies of the server): a Nest application
 * context with the module's forRoot options and one handler with its decorator's options, both as
 * import-app evaluated the file (errorBehavior and the library's errorHandler by name), whose body
 * fails as told and does with the failure what the application's body does (throws, returns
 * new Nack(requeue), or catches and returns). The adapter only carries the reading over.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FrameworkRunner } from './frameworkRunner.js';
import { NODE_RUNNERS_DIR, startNodeJob } from './nodeRunnerJob.js';
import { amqpUrlText } from './rascalRunner.js';
import { INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';

export const NESTJS_RUNNER: FrameworkRunner = {
  framework: 'nestjs-rabbitmq',
  label: 'NestJS (@golevelup/nestjs-rabbitmq)',
  declaresTopology: true,
  absent: () => {
    if (!existsSync(path.join(NODE_RUNNERS_DIR, 'nestjsRunner.mjs'))) return NOT_IN_PACKAGE;
    try {
      createRequire(import.meta.url).resolve('@golevelup/nestjs-rabbitmq');
      return undefined;
    } catch {
      return `@golevelup/nestjs-rabbitmq is not installed (a devDependency of the server): pnpm install, or ${INSTALL_HINT}`;
    }
  },
  start: (ctx) => {
    // without a reading (the runner's own check): the library's defaults on the channel's queue
    const r = ctx.runnable ?? {};
    const subscribe = (r.subscribe ?? {}) as Record<string, unknown>;
    return startNodeJob(
      'nestjsRunner.mjs',
      ctx.workDir,
      () => ({
        url: amqpUrlText(ctx.amqp),
        module: r.module ?? {},
        subscribe: { ...subscribe, queue: ctx.channel.queue },
        decorator: r.decorator ?? 'RabbitSubscribe',
        errorHandler: r.errorHandler,
        rpcErrorHandler: r.rpcErrorHandler,
        onFailure: r.onFailure ?? 'throws',
        queue: ctx.channel.queue,
        failFirst: ctx.failure.kind === 'always' ? -1 : ctx.failure.n,
      }),
      'golevelupVersion',
    );
  },
};
