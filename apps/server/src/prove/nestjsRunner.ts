/**
 * NestJS with @golevelup/nestjs-rabbitmq (pinned, devDependencies of the server): a Nest application
 * context with the module options and one @RabbitSubscribe handler, both as import-app read them
 * (source settings `module` and `subscribe`, JSON; `errorHandler` by the library's handler name).
 * A NestJS configuration is TypeScript the runner does not compile: without a reading there is
 * nothing to run, and the proof says so and fails.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { consumerNodeId, sourceSetting } from '@retry-studio/topology-core/model';
import type { FrameworkRunner } from './frameworkRunner.js';
import { NODE_RUNNERS_DIR, startNodeJob } from './nodeRunnerJob.js';
import { amqpUrlText } from './rascalRunner.js';
import { INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';

const json = (text: string | undefined): Record<string, unknown> => {
  try {
    const v = text === undefined ? undefined : (JSON.parse(text) as unknown);
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const NESTJS_RUNNER: FrameworkRunner = {
  framework: 'nestjs',
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
  recognises: (f) => /\.[cm]?[jt]s$/i.test(f.name) && /@RabbitSubscribe\b|RabbitMQModule\.forRoot/.test(f.text),
  start: (ctx) => {
    const src = ctx.design?.sources?.[consumerNodeId(ctx.channel.consumer)];
    const subscribe = json(sourceSetting(src, 'subscribe')?.value);
    return startNodeJob(
      'nestjsRunner.mjs',
      ctx.workDir,
      () => ({
        url: amqpUrlText(ctx.amqp),
        module: json(sourceSetting(src, 'module')?.value),
        subscribe: { queue: ctx.channel.queue, ...subscribe },
        queue: ctx.channel.queue,
        failFirst: ctx.failure.kind === 'always' ? -1 : ctx.failure.n,
      }),
      'golevelupVersion',
    );
  },
};
