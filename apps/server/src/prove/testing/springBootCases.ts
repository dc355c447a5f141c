/** The Spring Boot configurations both Boot lines run (3.5 and 4.0 read and run each file their own way). */
import type { ProofCase } from './proofCases.js';

export const SPRING_BOOT_CASES: readonly ProofCase[] = [
  { file: 'spring-boot/written-retry-defaults-application.yml', what: "defaults: retry on, Boot's recoverer" },
  {
    file: 'spring-boot/written-exponential-application.properties',
    what: 'exponential back-off capped by max-interval',
  },
  { file: 'spring-boot/written-boot4-application.yml', what: "Boot 4's max-retries (Boot 3.5 ignores it)" },
  { file: 'spring-boot/written-retry-off-application.yml', what: 'a trap: retry off, requeued for ever' },
];
