/**
 * Spring Boot's listener keys (relative to `spring.rabbitmq.listener.`), each with the first Boot
 * release that reads it: the fields of RabbitProperties' Listener, AmqpContainer, SimpleContainer,
 * DirectContainer, StreamContainer and ListenerRetry compared across the release tags v1.3.0 ...
 * v4.0.0 of spring-projects/spring-boot. Before 2.0 the container keys sat directly under
 * `listener.`; 2.0 moved them under `listener.simple.` and added `direct.`.
 */
import type { KeyEntry, KeyTable } from './keyTable.js';

/** keys every AMQP container (simple, direct) has, with the release that added the field */
const CONTAINER: readonly (readonly [string, string])[] = [
  ['auto-startup', '1.3'],
  ['acknowledge-mode', '1.3'],
  ['prefetch', '1.3'],
  ['default-requeue-rejected', '1.4'],
  ['idle-event-interval', '1.5'],
  ['de-batching-enabled', '2.4'],
  ['force-stop', '3.2'],
  ['observation-enabled', '3.3'],
  ['retry.enabled', '1.4'],
  ['retry.initial-interval', '1.4'],
  ['retry.multiplier', '1.4'],
  ['retry.max-interval', '1.4'],
  ['retry.stateless', '1.4'],
];

const SIMPLE: readonly (readonly [string, string])[] = [
  ['concurrency', '1.3'],
  ['max-concurrency', '1.3'],
  ['batch-size', '2.2'],
  ['missing-queues-fatal', '2.1'],
  ['consumer-batch-enabled', '2.4'],
];

const later = (a: string, b: string): string => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return x[0]! > y[0]! || (x[0] === y[0] && x[1]! >= y[1]!) ? a : b;
};

const under = (c: string, list: readonly (readonly [string, string])[], from: string): KeyEntry[] =>
  list.map(([k, since]) => ({ key: `${c}.${k}`, since: later(since, from) }));

export const SPRING_BOOT_KEYS: KeyTable = {
  title: 'Spring Boot',
  cite: 'spring-projects/spring-boot RabbitProperties.java (Listener), release tags v1.3.0 to v4.0.0',
  entries: [
    { key: 'type', since: '2.0' },
    ...under('simple', CONTAINER, '2.0'),
    ...under('simple', SIMPLE, '2.0'),
    { key: 'simple.transaction-size', since: '2.0', until: '2.2', replacedBy: 'simple.batch-size' },
    { key: 'simple.retry.max-attempts', since: '2.0', until: '4.0', replacedBy: 'simple.retry.max-retries' },
    { key: 'simple.retry.max-retries', since: '4.0' },
    ...under('direct', CONTAINER, '2.0'),
    { key: 'direct.consumers-per-queue', since: '2.0' },
    { key: 'direct.missing-queues-fatal', since: '2.1' },
    { key: 'direct.retry.max-attempts', since: '2.0', until: '4.0', replacedBy: 'direct.retry.max-retries' },
    { key: 'direct.retry.max-retries', since: '4.0' },
    { key: 'stream.native-listener', since: '2.6' },
    { key: 'stream.observation-enabled', since: '3.3' },
    // Boot 1.x: the one container's keys straight under listener. (read until 2.0)
    ...[...CONTAINER, ...SIMPLE, ['transaction-size', '1.3'] as const, ['retry.max-attempts', '1.4'] as const]
      .filter(([, since]) => since.startsWith('1.'))
      .map(([k, since]): KeyEntry => ({ key: k, since, until: '2.0', replacedBy: `simple.${k}` })),
  ],
};
