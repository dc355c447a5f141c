/** Spring Boot 4.0 runs the same configurations: it ignores max-attempts (renamed max-retries). */
import { describeProofs } from './testing/proofCases.js';

describeProofs(
  'spring-boot',
  [
    { file: 'spring-boot/global-errorhandler-application.yml', what: 'a trap: retry off, requeued for ever' },
    { file: 'spring-boot/retry-poc-consumer-application.yml', what: 'exponential back-off, max-interval defaulted' },
    { file: 'spring-boot/techgeeknext-consumer-application.yml', what: 'exponential back-off capped by max-interval' },
    { file: 'spring-boot/retry-mechanism-application.properties', what: "Boot's RejectAndDontRequeueRecoverer" },
  ],
  { springBoot: '4.0' },
);
