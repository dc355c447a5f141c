/**
 * Spring Cloud Stream 4.3 with the Rabbit binder (Spring Boot 3.5) runs the corpus's bindings with
 * the user's files. With no DLQ bound the binder's republish-to-dlq finds no DLX and acks the failed
 * message (discarded); anonymous groups never consume on RabbitMQ 4.3.6 (their AnonymousQueue carries
 * x-queue-master-locator, which 4.x refuses): import-app predicts both.
 */
import { describeProofs } from './testing/proofCases.js';

describeProofs('spring-cloud-stream', [
  {
    file: 'spring-cloud-stream/multi-functions-application.yml',
    what: "defaults: the binder's retry, anonymous groups",
  },
  { file: 'spring-cloud-stream/sensor-average-application.yml', what: 'defaults, two functions, anonymous groups' },
  { file: 'spring-cloud-stream/partitioning-consumer-application.yml', what: 'a partitioned group queue, no DLQ' },
  { file: 'spring-cloud-stream/written-dlq-backoff-application.yml', what: 'exponential back-off into the DLQ' },
  { file: 'spring-cloud-stream/written-dlq-ttl-loop-application.yml', what: 'a trap: the DLQ TTL back to the queue' },
]);
