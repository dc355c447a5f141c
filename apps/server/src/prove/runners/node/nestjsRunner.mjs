/**
 * prove-app's NestJS runner: a Nest application context with @golevelup/nestjs-rabbitmq's module
 * (the module options import-app read, the connection pointed at the throwaway vhost) and one
 * @RabbitSubscribe handler (the subscription's options as read: exchange, routing key, queue,
 * queueOptions, errorBehavior or errorHandler) that fails as told. Decorators are applied by hand:
 * plain JavaScript, no compiler.
 */
import 'reflect-metadata';
import { createRequire } from 'node:module';
import process from 'node:process';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  RabbitMQModule,
  RabbitSubscribe,
  Nack,
  ackErrorHandler,
  defaultNackErrorHandler,
  requeueErrorHandler,
} from '@golevelup/nestjs-rabbitmq';
import { emit, failer, onStop, plain, readSpec } from './events.mjs';

const spec = readSpec();
const { job } = spec;
const require = createRequire(import.meta.url);
emit('-', 'runner', {
  golevelupVersion: require('@golevelup/nestjs-rabbitmq/package.json').version,
  nestVersion: require('@nestjs/core/package.json').version,
});

/** errorHandler as the application names it (the library's exported handlers) */
const ERROR_HANDLERS = { ackErrorHandler, defaultNackErrorHandler, requeueErrorHandler };
const decide = failer(spec.failFirst);

class ProveHandler {
  async handle(message, amqpMsg) {
    const body = typeof message === 'string' ? message : amqpMsg.content.toString();
    const { n, fail } = decide(body);
    emit(job, 'attempt', {
      t: Date.now(),
      queue: spec.queue,
      body,
      deliveryTag: amqpMsg.fields.deliveryTag,
      redelivered: amqpMsg.fields.redelivered,
      headers: plain(amqpMsg.properties.headers),
      xDeath: plain(amqpMsg.properties.headers?.['x-death']),
      failed: fail,
    });
    if (!fail) return undefined;
    // a handler that returns new Nack(requeue) instead of throwing (the application's choice, as read)
    if (spec.returnsNack !== undefined) return new Nack(spec.returnsNack);
    throw new Error(`prove-app: the handler fails attempt ${n} as told`);
  }
}
const { errorHandler, ...subscribe } = spec.subscribe;
const descriptor = Object.getOwnPropertyDescriptor(ProveHandler.prototype, 'handle');
RabbitSubscribe({
  ...subscribe,
  allowNonJsonMessages: true,
  ...(errorHandler ? { errorHandler: ERROR_HANDLERS[errorHandler] } : {}),
})(ProveHandler.prototype, 'handle', descriptor);
Object.defineProperty(ProveHandler.prototype, 'handle', descriptor);
Injectable()(ProveHandler);

class ProveModule {}
Module({
  imports: [
    RabbitMQModule.forRoot({ ...spec.module, uri: spec.url, connectionInitOptions: { wait: true, timeout: 20000 } }),
  ],
  providers: [ProveHandler],
})(ProveModule);

let app;
try {
  app = await NestFactory.createApplicationContext(ProveModule, { logger: ['error', 'warn'] });
  await app.init();
  emit(job, 'started');
} catch (err) {
  emit(job, 'error', { message: String(err?.message ?? err) });
  process.exit(1);
}
onStop(job, () => app.close());
