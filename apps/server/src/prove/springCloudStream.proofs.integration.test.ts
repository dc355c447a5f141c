/** Spring Cloud Stream with the Rabbit binder runs the corpus's bindings with the user's files. */
import { describeProofs } from './testing/proofCases.js';

describeProofs('spring-cloud-stream', [
  {
    file: 'spring-cloud-stream/multi-functions-application.yml',
    what: "defaults: the binder's retry, anonymous groups",
  },
  { file: 'spring-cloud-stream/sensor-average-application.yml', what: 'defaults, two functions' },
  { file: 'spring-cloud-stream/partitioning-consumer-application.yml', what: 'a partitioned group queue' },
]);
