/** Spring AMQP's Java configuration: the container factory built from what import-app read. */
import { describeProofs } from './testing/proofCases.js';

describeProofs('spring-amqp', [
  { file: 'spring-amqp/GlobalErrorHandlerApplication.java', what: 'defaults: no retry, requeued for ever (a trap)' },
  { file: 'spring-amqp/TgshareRabbitListenerConfig.java', what: 'exponential back-off, RejectAndDontRequeueRecoverer' },
  {
    file: 'spring-amqp/RabbitMQExceptionHandling.java',
    what: 'a trap: stateless retry without a recoverer',
    // Spring acks the delivery after the last attempt ("dropped on recovery"): the message is gone,
    // which import-app calls "acked" until its outcome `discarded` lands
    differs: {
      'always@3.10': ['listener-listener.queue: end: predicted acked, observed discarded'],
      'always@4.3': ['listener-listener.queue: end: predicted acked, observed discarded'],
    },
  },
  { file: 'spring-amqp/BundleRabbitListenerConfiguration.java', what: 'one attempt, then the recoverer' },
]);
