/**
 * Spring Boot 4.0 runs the same configurations. Boot 4 renamed `retry.max-attempts` to
 * `max-retries` and ignores the old key: every file here sets max-attempts, so Boot 4 makes
 * max-retries' default 3 retries (4 attempts). import-app reads these files as Boot 2/3 do (and
 * says so in a note); it has no way yet to read them as Boot 4 runs them: those cases differ.
 */
import { describeProofs } from './testing/proofCases.js';

/** import-app reads max-attempts as Boot 2/3; Boot 4.0.7 ignores it: 4 attempts, the waits cut short */
const boot4Ignores = (consumer: string, predicted: number) => ({
  'always@3.10': [`${consumer}: attempts: predicted ${predicted}, observed 4`],
  'always@4.3': [`${consumer}: attempts: predicted ${predicted}, observed 4`],
});

describeProofs(
  'spring-boot',
  [
    { file: 'spring-boot/global-errorhandler-application.yml', what: 'a trap: retry off, requeued for ever' },
    {
      file: 'spring-boot/retry-poc-consumer-application.yml',
      what: 'exponential back-off, max-interval defaulted',
      differs: boot4Ignores('consumer-listener', 5),
    },
    {
      file: 'spring-boot/techgeeknext-consumer-application.yml',
      what: 'exponential back-off capped by max-interval',
      differs: boot4Ignores('app-listener', 6),
    },
    // max-attempts 4 happens to equal Boot 4's default of 3 retries
    { file: 'spring-boot/retry-mechanism-application.properties', what: "Boot's RejectAndDontRequeueRecoverer" },
  ],
  { springBoot: '4.0' },
);
