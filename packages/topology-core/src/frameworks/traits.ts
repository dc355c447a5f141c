/**
 * What lint asks of a framework: its name, the fix for each lint rule in the framework's own terms,
 * whether its worker processes retry in step. Kept apart from the readers so that lint loads none
 * of them (nor their YAML parser: bench:cli's 1,000-queue lint); each framework's object
 * (springBoot.ts, ...) spreads its entry, so a framework is still one object.
 */
import type { AppFramework } from '../model/source.js';

export interface FrameworkTraits {
  readonly title: string;
  readonly fixes: Readonly<Record<string, string>>;
  /** every worker process of the application retries in step (Celery's pool) */
  readonly retriesInStep?: boolean;
}

export const FRAMEWORK_TRAITS: Readonly<Record<AppFramework, FrameworkTraits>> = {
  'spring-boot': {
    title: 'Spring Boot',
    fixes: {
      'nack-never-reaches-delivery-limit':
        'Upgrade Spring AMQP to a release with the 4.3 fix (it rejects deliveries one by one: spring-amqp #3507/#3559), or enable retry (spring.rabbitmq.listener.simple.retry.enabled: true) so the recoverer rejects without requeue.',
      'requeue-without-limit':
        'Set spring.rabbitmq.listener.simple.default-requeue-rejected: false (and give the queue a DLX), or enable retry so RejectAndDontRequeueRecoverer ends it.',
      'requeue-rejected-forever':
        'Set spring.rabbitmq.listener.simple.default-requeue-rejected: false and give the queue a dead-letter exchange, or enable retry (retry.enabled: true) so the RejectAndDontRequeueRecoverer ends it.',
      'backoff-without-jitter':
        "Spring Boot's retry properties have no jitter: lower concurrency, or declare a RetryInterceptorBuilder advice with an ExponentialRandomBackOffPolicy (backOffPolicy) in Java.",
      'immediate-retries-over-delivery-limit':
        'Lower retry.max-attempts below the delivery limit, or use stateless retry (retry.stateless: true), which retries without returning the message.',
      'republish-counts-x-death':
        'Count rounds in a header of your own (AmqpHeaders.RETRY_COUNT, Spring AMQP 3.2+), or let the broker dead-letter so x-death counts.',
      'backoff-over-consumer-timeout':
        'Keep max-attempts x max-interval well under 30 min, and move long waits to the broker (a DLX with TTL wait queues, or 4.3 quorum delayed retry).',
    },
  },
  'spring-cloud-stream': {
    title: 'Spring Cloud Stream',
    fixes: {
      'framework-queue-refused':
        'Give the binding a group (spring.cloud.stream.bindings.<binding>.group): a durable group queue carries no locator argument; or run Spring AMQP 3.2.11+ / 4.0.4+ (Spring Boot 3.5.15+ / 4.0.7+), whose AnonymousQueue declares x-queue-leader-locator, which RabbitMQ 4.x accepts.',
      'app-discards-failures':
        "republish-to-dlq (true by default) finds no DLX exchange when auto-bind-dlq is off: the binder logs \"disabling 'republishToDlq'\" and acks the failed message. Set auto-bind-dlq: true (with a group) so the binder declares the DLX and the DLQ, or republish-to-dlq: false so the queue's own dead-letter settings decide.",
      'nack-never-reaches-delivery-limit':
        'Set requeue-rejected: false and auto-bind-dlq: true, so exhausted messages go to the DLQ instead of back to the queue.',
      'requeue-without-limit': 'Set requeue-rejected: false and auto-bind-dlq: true.',
      'parked-dead-letters-expire':
        'Remove dlq-ttl, or set dlq-dead-letter-exchange (and dlq-dead-letter-routing-key) so expired dead letters go back to the queue or to a parking queue instead of being dropped.',
      'quorum-default-delivery-limit':
        'Set quorum.delivery-limit explicitly (or a delivery-limit policy), and auto-bind-dlq: true so the limit dead-letters rather than drops.',
      'requeue-rejected-forever':
        'Set requeue-rejected: false with auto-bind-dlq: true (exhausted messages go to <destination>.<group>.dlq), or keep max-attempts above 1.',
      'backoff-without-jitter':
        "The binder's back-off-* has no jitter: give the binding a RetryTemplate bean with an ExponentialRandomBackOffPolicy (@StreamRetryTemplate), or lower concurrency.",
      'republish-counts-x-death':
        'Set republish-to-dlq: false so the broker dead-letters the message (its x-death then counts on every version), or count rounds in a header of your own (Spring AMQP 3.2+ retry-count, AmqpHeaders.RETRY_COUNT) instead of x-death.',
      'backoff-over-consumer-timeout':
        'Keep max-attempts x back-off-max-interval under 30 min; for longer waits use auto-bind-dlq with dlq-ttl and dlq-dead-letter-exchange back to the queue.',
    },
  },
  'spring-amqp': {
    title: 'Spring AMQP',
    fixes: {
      'nack-never-reaches-delivery-limit':
        'Upgrade Spring AMQP to a release with the 4.3 fix (spring-amqp #3507/#3559), or end the retry in a recoverer that does not requeue (RejectAndDontRequeueRecoverer, RepublishMessageRecoverer).',
      'requeue-without-limit':
        'factory.setDefaultRequeueRejected(false) with a DLX on the queue, or a retry advice whose recoverer does not requeue.',
      'requeue-rejected-forever':
        'Call factory.setDefaultRequeueRejected(false) and give the queue a dead-letter exchange, or add a RetryInterceptorBuilder advice with a recoverer that does not requeue.',
      'backoff-without-jitter':
        'Use an ExponentialRandomBackOffPolicy (RetryInterceptorBuilder.backOffPolicy(...)) instead of backOffOptions, or on Spring AMQP 4 configureRetryPolicy(b -> b.jitter(...)).',
      'immediate-retries-over-delivery-limit':
        'Lower maxAttempts below the delivery limit, or use RetryInterceptorBuilder.stateless().',
      'republish-counts-x-death':
        'Count rounds in a header of your own (AmqpHeaders.RETRY_COUNT, Spring AMQP 3.2+), or let the broker dead-letter (RejectAndDontRequeueRecoverer) so x-death counts.',
      'backoff-over-consumer-timeout':
        'Keep maxAttempts x the back-off under the consumer timeout, or use stateful retry / broker-side waits for long delays.',
      'app-discards-failures':
        'Give the advice a recoverer that keeps the message: .recoverer(new RejectAndDontRequeueRecoverer()) with a dead-letter exchange on the queue, or a RepublishMessageRecoverer to an error exchange.',
    },
  },
  nservicebus: {
    title: 'NServiceBus',
    fixes: {
      'quorum-default-delivery-limit':
        'Give the endpoint queue an explicit delivery limit above Immediate.NumberOfRetries + 1 (a policy with delivery-limit, NServiceBus.RabbitMQ #1550), or set it to unlimited with the x-delivery-limit argument (-1 cannot be set by policy).',
      'immediate-retries-over-delivery-limit':
        "Lower Immediate(i => i.NumberOfRetries(n)) below the limit, or raise the queue's delivery limit (x-delivery-limit, -1 for unlimited as an argument, NServiceBus.RabbitMQ #1550).",
    },
  },
  masstransit: {
    title: 'MassTransit',
    fixes: {
      'quorum-default-delivery-limit':
        'Set a delivery limit explicitly (a policy), keeping UseMessageRetry in process so redeliveries stay few.',
      'backoff-without-jitter': 'Use r.Exponential(...) (its intervals are randomised) or stagger the Intervals.',
      'backoff-over-consumer-timeout':
        'Keep UseMessageRetry short and move long waits to UseDelayedRedelivery (the message leaves the consumer while it waits).',
      'app-discards-failures':
        'Remove DiscardFaultedMessages() so a message that still fails moves to <queue>_error, where it can be inspected and redelivered.',
    },
  },
  celery: {
    title: 'Celery',
    retriesInStep: true,
    fixes: {
      'backoff-without-jitter':
        'Keep retry_jitter=True (the default), which draws each countdown between 0 and the back-off.',
      'backoff-over-consumer-timeout':
        "Countdowns past the consumer timeout need it raised on the broker (consumer_timeout, or x-consumer-timeout on the queue), or Celery's native delayed delivery on quorum queues.",
      'app-discards-failures':
        'Give the task retries that outlast the outage (autoretry_for with retry_backoff and max_retries), and keep what still fails: a task_failure handler that stores it, or acks_late with task_reject_on_worker_lost and a dead-letter exchange on the queue.',
    },
  },
  rascal: {
    title: 'Rascal',
    fixes: {
      'requeue-rejected-forever':
        "Use a recovery chain that ends: [{ strategy: 'republish', defer: 1000, attempts: 10 }, { strategy: 'nack' }] with a dead-letter exchange on the queue.",
      'requeue-without-limit':
        'Chain a bounded strategy instead of nack with requeue (republish with attempts, then nack), or give the subscription a redeliveries limit with a real counter (inMemory, inMemoryCluster): the default stub counter never counts.',
      'dlx-missing':
        "Declare the dead-letter exchange in the vhost's exchanges and bind a queue to it, or Rascal's final nack drops the message.",
    },
  },
  'nestjs-rabbitmq': {
    title: 'NestJS (@golevelup/nestjs-rabbitmq)',
    fixes: {
      'requeue-rejected-forever':
        'Give the handler errorBehavior: MessageHandlerErrorBehavior.NACK with a dead-letter exchange in queueOptions (deadLetterExchange), or set defaultSubscribeErrorBehavior: NACK in RabbitMQModule.forRoot: the default REQUEUE redelivers a failing message at once, for ever.',
      'requeue-without-limit':
        'Set errorBehavior: MessageHandlerErrorBehavior.NACK and a deadLetterExchange in queueOptions, or bound the retries in the handler (count them in a header, then return new Nack(false)).',
      'app-discards-failures':
        'Rethrow in the catch (or return new Nack(false) with a deadLetterExchange in queueOptions): a handler that returns normally is acked and the message is gone.',
    },
  },
};

export const frameworkTitle = (id: AppFramework): string => FRAMEWORK_TRAITS[id]?.title ?? id;

/** The fix for a lint rule in the framework's own terms, when it has one. */
export const frameworkFix = (id: AppFramework, ruleId: string): string | undefined =>
  FRAMEWORK_TRAITS[id]?.fixes[ruleId];

/** Whether every worker process of the framework's application retries in step (Celery's pool). */
export const retriesInStep = (id: AppFramework): boolean => FRAMEWORK_TRAITS[id]?.retriesInStep === true;
