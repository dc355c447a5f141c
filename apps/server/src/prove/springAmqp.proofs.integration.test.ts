/** Spring AMQP's Java configuration: the container factory built from what import-app read. */
import { describeProofs, discardedReadAsAcked } from './testing/proofCases.js';

describeProofs('spring-amqp', [
  { file: 'spring-amqp/GlobalErrorHandlerApplication.java', what: 'defaults: no retry, requeued for ever (a trap)' },
  { file: 'spring-amqp/TgshareRabbitListenerConfig.java', what: 'exponential back-off, RejectAndDontRequeueRecoverer' },
  {
    file: 'spring-amqp/RabbitMQExceptionHandling.java',
    what: 'a trap: stateless retry without a recoverer',
    // Spring acks the delivery after the last attempt ("dropped on recovery"): the message is gone
    differs: discardedReadAsAcked('listener-listener.queue'),
  },
  { file: 'spring-amqp/BundleRabbitListenerConfiguration.java', what: 'one attempt, then the recoverer' },
]);
