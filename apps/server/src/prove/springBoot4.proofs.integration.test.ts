/**
 * Spring Boot 4.0 runs the same configurations, each read as Boot 4 (`--spring-boot 4.0`): Boot 4
 * reads `retry.max-retries` and ignores `max-attempts`, so its attempts differ from Boot 3.5's where
 * a file writes one key and not the other, and import-app says the same.
 */
import { describeProofs } from './testing/proofCases.js';
import { SPRING_BOOT_CASES } from './testing/springBootCases.js';

describeProofs('spring-boot', SPRING_BOOT_CASES, { springBoot: '4.0' });
