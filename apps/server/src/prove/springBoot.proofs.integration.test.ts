/** Spring Boot 3.5 runs the corpus's Spring Boot configurations (spring.rabbitmq.listener.* retry, a @RabbitListener), each read as Boot 3.5. */
import { describeProofs } from './testing/proofCases.js';
import { SPRING_BOOT_CASES } from './testing/springBootCases.js';

describeProofs('spring-boot', SPRING_BOOT_CASES, { springBoot: '3.5' });
