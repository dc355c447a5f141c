/**
 * Spring Cloud Stream's consumer keys, each with the first release that reads it: the setters of
 * BindingProperties and ConsumerProperties (spring-cloud/spring-cloud-stream, tags v1.0.0 to
 * v5.0.0) and of the RabbitMQ binder's RabbitCommonProperties and RabbitConsumerProperties
 * (spring-cloud/spring-cloud-stream-binder-rabbit v1.1.0 to v3.2.0, then in spring-cloud-stream
 * from v4.0.0). Binder keys are spelt as the binder's setters spell them: `republish-delivey-mode`
 * is the binder's own spelling (setRepublishDeliveyMode), so `republish-delivery-mode` is never read.
 */
import type { KeyTable } from './keyTable.js';

/** `spring.cloud.stream.bindings.<name>.` */
const BINDING: readonly (readonly [string, string])[] = [
  ['binder', '1.0'],
  ['content-type', '1.0'],
  ['destination', '1.0'],
  ['error-handler-definition', '4.0'],
  ['group', '1.0'],
  ['producer.*', '1.0'],
];

/** `...bindings.<name>.consumer.` and `spring.cloud.stream.default.consumer.` */
const CONSUMER: readonly (readonly [string, string])[] = [
  ['auto-startup', '2.2'],
  ['back-off-initial-interval', '1.0'],
  ['back-off-max-interval', '1.0'],
  ['back-off-multiplier', '1.0'],
  ['batch-mode', '3.0'],
  ['concurrency', '1.0'],
  ['default-retryable', '2.1'],
  ['header-mode', '1.0'],
  ['instance-count', '1.0'],
  ['instance-index', '1.0'],
  ['instance-index-list', '3.0'],
  ['max-attempts', '1.0'],
  ['multiplex', '2.1'],
  ['partitioned', '1.0'],
  ['retry-template-name', '2.2'],
  ['retryable-exceptions.*', '2.1'],
  ['use-native-decoding', '2.0'],
];

/** `spring.cloud.stream.rabbit.bindings.<name>.consumer.` and `spring.cloud.stream.rabbit.default.consumer.` */
const RABBIT_CONSUMER: readonly (readonly [string, string, string?])[] = [
  ['acknowledge-mode', '1.1'],
  ['anonymous-group-prefix', '2.2'],
  ['auto-bind-dlq', '1.1'],
  ['batch-size', '3.0'],
  ['bind-queue', '1.2'],
  ['binding-routing-key', '1.2'],
  ['binding-routing-key-delimiter', '3.0'],
  ['consumer-priority', '5.0'],
  ['consumer-tag-prefix', '2.1'],
  ['container-type', '2.2'],
  ['dead-letter-exchange', '1.2'],
  ['dead-letter-exchange-type', '2.1'],
  ['dead-letter-queue-name', '1.2'],
  ['dead-letter-routing-key', '1.2'],
  ['declare-dlx', '2.1'],
  ['declare-exchange', '1.2'],
  ['delayed-exchange', '1.2'],
  ['dlq-binding-arguments.*', '3.0'],
  ['dlq-dead-letter-exchange', '1.2'],
  ['dlq-dead-letter-routing-key', '1.2'],
  ['dlq-expires', '1.2'],
  ['dlq-lazy', '1.3'],
  ['dlq-max-length', '1.2'],
  ['dlq-max-length-bytes', '1.2'],
  ['dlq-max-priority', '1.2'],
  ['dlq-overflow-behavior', '2.1'],
  ['dlq-quorum.enabled', '3.0'],
  ['dlq-quorum.delivery-limit', '3.0'],
  ['dlq-quorum.initial-group-size', '3.0'],
  ['dlq-single-active-consumer', '3.1'],
  ['dlq-ttl', '1.2'],
  ['durable-subscription', '1.1'],
  ['enable-batching', '3.1'],
  ['exchange-auto-delete', '1.2'],
  ['exchange-durable', '1.2'],
  ['exchange-type', '1.2'],
  ['exclusive', '1.3'],
  ['expires', '1.2'],
  ['failed-declaration-retry-interval', '2.0'],
  ['frame-max-headroom', '2.1'],
  ['header-patterns', '1.2'],
  ['header-patterns[*]', '1.2'],
  ['lazy', '1.3'],
  ['max-concurrency', '1.1'],
  ['max-length', '1.2'],
  ['max-length-bytes', '1.2'],
  ['max-priority', '1.2'],
  ['missing-queues-fatal', '2.0'],
  ['overflow-behavior', '2.1'],
  ['prefetch', '1.1'],
  ['prefix', '1.1'],
  ['queue-binding-arguments.*', '3.0'],
  ['queue-declaration-retries', '2.0'],
  ['queue-max-priority', '5.0'],
  ['queue-name-group-only', '2.0'],
  ['quorum.enabled', '3.0'],
  ['quorum.delivery-limit', '3.0'],
  ['quorum.initial-group-size', '3.0'],
  ['receive-timeout', '3.1'],
  ['recovery-interval', '1.1'],
  ['republish-delivey-mode', '1.2'],
  ['republish-to-dlq', '1.1'],
  ['requeue-rejected', '1.1'],
  ['single-active-consumer', '3.1'],
  ['stream-stream-message-converter-bean-name', '3.2'],
  ['super-stream', '4.0'],
  ['transacted', '1.1'],
  ['ttl', '1.2'],
  ['tx-size', '1.1', '4.0'],
  ['request-header-patterns', '1.1', '4.0'],
];

const table = (title: string, cite: string, rows: readonly (readonly (string | undefined)[])[]): KeyTable => ({
  title,
  cite,
  entries: rows.map(([key, since, until]) => ({ key: key!, since: since!, ...(until !== undefined ? { until } : {}) })),
});

export const SCS_BINDING_KEYS = table(
  'Spring Cloud Stream',
  'spring-cloud-stream BindingProperties.java, tags v1.0.0-v5.0.0',
  [...BINDING, ...CONSUMER.map(([k, v]) => [`consumer.${k}`, v] as const)],
);
export const SCS_DEFAULT_KEYS = table(
  'Spring Cloud Stream',
  'spring-cloud-stream ConsumerProperties.java, tags v1.0.0-v5.0.0',
  CONSUMER,
);
export const SCS_RABBIT_KEYS = table(
  'the Spring Cloud Stream RabbitMQ binder',
  'RabbitCommonProperties.java and RabbitConsumerProperties.java, binder v1.1.0-v5.0.0',
  RABBIT_CONSUMER,
);
