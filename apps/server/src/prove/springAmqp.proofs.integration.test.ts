/** Spring AMQP's Java configuration: the container factory built from what import-app read. */
import { describeProofs } from './testing/proofCases.js';

describeProofs('spring-amqp', [
  { file: 'spring-amqp/WrittenPaymentsListenerConfig.java', what: 'defaults: no retry, requeued for ever' },
  { file: 'spring-amqp/WrittenOrdersRetryConfig.java', what: 'exponential back-off through constants, a DLQ' },
  { file: 'spring-amqp/WrittenInventoryErrorRoutingConfig.java', what: 'a RepublishMessageRecoverer bean' },
  { file: 'spring-amqp/RabbitMQExceptionHandling.java', what: 'a trap: stateless retry without a recoverer' },
]);
