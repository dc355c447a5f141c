/**
 * Framework defaults applied where a key is absent, each with the documentation or source that
 * states it. A reader records the default it applied as a setting without a line, citing this.
 */
export interface FrameworkDefault {
  readonly value: string;
  readonly cite: string;
}

const BOOT =
  'https://docs.spring.io/spring-boot/appendix/application-properties/index.html#appendix.application-properties.integration';
const BOOT_PROPS_SRC =
  'https://github.com/spring-projects/spring-boot/blob/main/module/spring-boot-amqp/src/main/java/org/springframework/boot/amqp/autoconfigure/RabbitProperties.java';
const AMQP_CONTAINER = 'https://docs.spring.io/spring-amqp/reference/amqp/containerAttributes.html';
const SCS_CORE =
  'https://docs.spring.io/spring-cloud-stream/reference/spring-cloud-stream/binding-properties.html#consumer-properties';
const SCS_RABBIT =
  'https://docs.spring.io/spring-cloud-stream/reference/rabbit/rabbit_overview/rabbitmq-consumer-properties.html';
const NSB = 'https://docs.particular.net/nservicebus/recoverability/';
const MT = 'https://masstransit.io/documentation/concepts/exceptions';
const CELERY_TASKS = 'https://docs.celeryq.dev/en/stable/userguide/tasks.html#automatic-retry-for-known-exceptions';
const CELERY_CONF = 'https://docs.celeryq.dev/en/stable/userguide/configuration.html';

export const DEFAULTS = {
  springBoot: {
    retryEnabled: { value: 'false', cite: BOOT },
    /** Boot 2.x/3.x `max-attempts`: attempts in all */
    maxAttempts: { value: '3', cite: BOOT },
    /** Boot 4 `max-retries`: retries after the first attempt (RabbitProperties.Retry#maxRetries) */
    maxRetries: { value: '3', cite: BOOT_PROPS_SRC },
    initialInterval: { value: '1000ms', cite: BOOT },
    multiplier: { value: '1', cite: BOOT },
    maxInterval: { value: '10000ms', cite: BOOT },
    stateless: { value: 'true', cite: BOOT },
    /** unset in Boot: the container's own default applies */
    defaultRequeueRejected: { value: 'true', cite: AMQP_CONTAINER },
    acknowledgeMode: { value: 'auto', cite: AMQP_CONTAINER },
    prefetch: { value: '250', cite: AMQP_CONTAINER },
    concurrency: { value: '1', cite: AMQP_CONTAINER },
    /** with retry on and no MessageRecoverer bean, Boot's RabbitAnnotationDrivenConfiguration uses RejectAndDontRequeueRecoverer */
    recoverer: {
      value: 'RejectAndDontRequeueRecoverer',
      cite: 'https://docs.spring.io/spring-boot/reference/messaging/amqp.html#messaging.amqp.receiving',
    },
  },
  /** Spring AMQP's RetryInterceptorBuilder on its own (no Boot): its RetryTemplate and interceptor factory */
  springAmqp: {
    /** `new RetryTemplate()` keeps Spring Retry's NoBackOffPolicy until backOffOptions(...) is called */
    builderBackOff: {
      value: 'NoBackOffPolicy (no wait)',
      cite: 'https://github.com/spring-projects/spring-retry/blob/main/src/main/java/org/springframework/retry/support/RetryTemplate.java',
    },
    /** stateless, no recoverer: "Message(s) dropped on recovery" is logged and the listener returns, so the delivery is acked */
    statelessRecoverer: {
      value: 'none: logged as dropped and acked',
      cite: 'https://github.com/spring-projects/spring-amqp/blob/main/spring-rabbit/src/main/java/org/springframework/amqp/rabbit/config/StatelessRetryOperationsInterceptorFactoryBean.java',
    },
  },
  springCloudStream: {
    maxAttempts: { value: '3', cite: SCS_CORE },
    backOffInitialInterval: { value: '1000', cite: SCS_CORE },
    backOffMaxInterval: { value: '10000', cite: SCS_CORE },
    backOffMultiplier: { value: '2.0', cite: SCS_CORE },
    autoBindDlq: { value: 'false', cite: SCS_RABBIT },
    republishToDlq: { value: 'true', cite: SCS_RABBIT },
    requeueRejected: { value: 'false', cite: SCS_RABBIT },
    deadLetterExchange: { value: 'DLX', cite: SCS_RABBIT },
    exchangeType: { value: 'topic', cite: SCS_RABBIT },
    bindingRoutingKey: { value: '#', cite: SCS_RABBIT },
    prefetch: { value: '1', cite: SCS_RABBIT },
    concurrency: { value: '1', cite: SCS_CORE },
  },
  massTransit: {
    /** no retry unless configured: the first fault moves the message to `<queue>_error` */
    retry: { value: 'none', cite: MT },
    errorQueue: { value: '<queue>_error', cite: MT },
    skippedQueue: { value: '<queue>_skipped', cite: MT },
  },
  nServiceBus: {
    immediateRetries: { value: '5', cite: NSB },
    delayedRetries: { value: '3', cite: NSB },
    timeIncrease: { value: '10s', cite: NSB },
    errorQueue: {
      value: 'error',
      cite: 'https://docs.particular.net/nservicebus/recoverability/configure-error-handling',
    },
    delayInfrastructure: {
      value: 'nsb.v2.delay-level-27 .. 00, nsb.v2.delay-delivery',
      cite: 'https://docs.particular.net/transports/rabbitmq/delayed-delivery',
    },
  },
  celery: {
    maxRetries: { value: '3', cite: CELERY_TASKS },
    defaultRetryDelay: { value: '180', cite: CELERY_TASKS },
    retryBackoff: { value: 'False', cite: CELERY_TASKS },
    retryBackoffMax: { value: '600', cite: CELERY_TASKS },
    retryJitter: { value: 'True', cite: CELERY_TASKS },
    acksLate: { value: 'False', cite: `${CELERY_CONF}#task-acks-late` },
    rejectOnWorkerLost: { value: 'False', cite: `${CELERY_CONF}#task-reject-on-worker-lost` },
    defaultQueue: { value: 'celery', cite: `${CELERY_CONF}#task-default-queue` },
  },
} as const satisfies Record<string, Record<string, FrameworkDefault>>;
