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
  RabbitRPC,
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
    // what the application's body does with a failure, as read: catch and return new Nack(requeue), catch and return
    if (spec.onFailure === 'nack') return new Nack(false);
    if (spec.onFailure === 'nack-requeue') return new Nack(true);
    if (spec.onFailure === 'returns') return undefined;
    throw new Error(`prove-app: the handler fails attempt ${n} as told`);
  }
}
const descriptor = Object.getOwnPropertyDescriptor(ProveHandler.prototype, 'handle');
// the decorator the application used: an RPC handler's failures go to the module's defaultRpcErrorHandler
const decorator = spec.decorator === 'RabbitRPC' ? RabbitRPC : RabbitSubscribe;
decorator({
  ...spec.subscribe,
  allowNonJsonMessages: true,
  ...(spec.errorHandler ? { errorHandler: ERROR_HANDLERS[spec.errorHandler] } : {}),
})(ProveHandler.prototype, 'handle', descriptor);
Object.defineProperty(ProveHandler.prototype, 'handle', descriptor);
Injectable()(ProveHandler);

class ProveModule {}
Module({
  imports: [
    RabbitMQModule.forRoot({
      ...spec.module,
      ...(spec.rpcErrorHandler ? { defaultRpcErrorHandler: ERROR_HANDLERS[spec.rpcErrorHandler] } : {}),
      uri: spec.url,
      connectionInitOptions: { wait: true, timeout: 20000 },
    }),
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
