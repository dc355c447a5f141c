/** Spring Boot 3.5 runs the corpus's Spring Boot configurations (spring.rabbitmq.listener.* retry, a @RabbitListener). */
import { describeProofs } from './testing/proofCases.js';

describeProofs('spring-boot', [
  { file: 'spring-boot/global-errorhandler-application.yml', what: 'a trap: retry off, requeued for ever' },
  { file: 'spring-boot/retry-poc-consumer-application.yml', what: 'exponential back-off, max-interval defaulted' },
  { file: 'spring-boot/techgeeknext-consumer-application.yml', what: 'exponential back-off capped by max-interval' },
  { file: 'spring-boot/retry-mechanism-application.properties', what: "Boot's RejectAndDontRequeueRecoverer" },
]);
