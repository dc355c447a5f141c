/**
 * Spring Cloud Stream 4.3 with the Rabbit binder (Spring Boot 3.5) runs the corpus's bindings with
 * the user's files. What the runs showed, against import-app today:
 * - with no DLQ bound (auto-bind-dlq false), the binder's republish-to-dlq (true by default) finds
 *   no DLX, logs "disabling 'republishToDlq'", and the failed message is acked: discarded, where
 *   import-app predicts rejected and dropped;
 * - anonymous consumer groups (no `group`) never consume on RabbitMQ 4.3.6: the binder declares
 *   their queue with x-queue-master-locator, a deprecated feature 4.3 refuses ("Feature
 *   `queue_master_locator` is deprecated", a connection error in the broker's log), and the
 *   exclusive queue is gone before it is bound (404).
 */
import { describeProofs } from './testing/proofCases.js';

/** no DLQ: the message is acked after the last attempt, import-app says dropped */
const noDlqDiscards = (...consumers: string[]) => ({
  'always@3.10': consumers.map((c) => `${c}: end: predicted dropped, observed discarded`),
  'always@4.3': consumers.map((c) => `${c}: end: predicted dropped, observed discarded`),
});
/** anonymous groups on 4.3 */
const anonymousRefusedOn43 = {
  'always@4.3': /did not consume from \S+\.anonymous[\s\S]*NOT_FOUND - no queue '\S+\.anonymous\./,
  'fail-first-2@4.3': /did not consume from \S+\.anonymous[\s\S]*NOT_FOUND - no queue '\S+\.anonymous\./,
};

describeProofs('spring-cloud-stream', [
  {
    file: 'spring-cloud-stream/multi-functions-application.yml',
    what: "defaults: the binder's retry, anonymous groups",
    differs: noDlqDiscards('sink1-in-0', 'sink2-in-0'),
    refused: anonymousRefusedOn43,
  },
  {
    file: 'spring-cloud-stream/sensor-average-application.yml',
    what: 'defaults, two functions, anonymous groups',
    differs: noDlqDiscards('receive-in-0', 'calculateAverage-in-0'),
    refused: anonymousRefusedOn43,
  },
  {
    file: 'spring-cloud-stream/partitioning-consumer-application.yml',
    what: 'a partitioned group queue, no DLQ',
    differs: noDlqDiscards('input'),
  },
]);
