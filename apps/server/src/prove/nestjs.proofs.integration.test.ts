/**
 * NestJS with @golevelup/nestjs-rabbitmq 9 runs each handler with its decorator's and the module's
 * options as import-app evaluated them. The library's own integration controller's handlers with an
 * error handler of the application's own (ReplyErrorCallback, not read) are failures to predict.
 */
import { describeProofs } from './testing/proofCases.js';

describeProofs('nestjs-rabbitmq', [
  { file: 'nestjs-rabbitmq/written-defaults.consumer.ts', what: 'defaults: REQUEUE for ever' },
  { file: 'nestjs-rabbitmq/written-dlq.consumer.ts', what: 'errorBehavior NACK into a DLQ' },
  { file: 'nestjs-rabbitmq/written-swallow.consumer.ts', what: 'a trap: a catch that swallows; a catch that nacks' },
  {
    file: 'nestjs-rabbitmq/submodule.controller.ts',
    what: "@RabbitRPC handlers: the module's defaultRpcErrorHandler",
    unknown: ['pipedRpc', 'pipedParamRpc', 'guardedRpc', 'errorReplyRpc', 'hashWildcardRpc', 'wildcardRpc'],
  },
]);
