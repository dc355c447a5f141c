/**
 * What each file of the application-configuration corpus does, written from reading the file
 * (README.md beside it says where each comes from): per consumer, the attempts a message that
 * always fails gets, the waits between them (ms) and where it ends; the queues the framework
 * declares; the interaction findings (import-app's rules) on a 3.10 and a 4.x broker.
 */
export interface ConsumerExpectation {
  readonly id: string;
  readonly queue: string;
  readonly attempts: number;
  /** the waits between attempts, ms (every one) */
  readonly delaysMs: readonly number[];
  /** `queue:NAME` (rests there), `dropped`, `acked` (processed), `discarded` (the framework gives up, acks and forgets it), `cycling` (never ends) */
  readonly ends: string;
}

export interface AppFileExpectation {
  readonly framework: string;
  readonly consumers: readonly ConsumerExpectation[];
  /** queues the design declares (all of them, sorted), or a count where the framework declares many */
  readonly queues: readonly string[] | number;
  readonly findings: { readonly '3.10': readonly string[]; readonly '4.x': readonly string[] };
  /** text every "not modelled" note list must contain (lines the reader could not turn into behaviour) */
  readonly notes?: readonly string[];
}

const z = (n: number): number[] => Array(n).fill(0);
/** NServiceBus: `immediate` requeues, then a delayed retry of r x increase, for each round */
const nsb = (immediate: number, delayed: number, increaseMs: number): number[] =>
  Array.from({ length: delayed + 1 }, (_, r) => [
    ...z(immediate),
    ...(r < delayed ? [(r + 1) * increaseMs] : []),
  ]).flat();

export const APP_EXPECTED: Readonly<Record<string, AppFileExpectation>> = {
  'celery/task_base.py': {
    framework: 'celery',
    // retry_kwargs max_retries=3, retry_backoff=True (factor 1), jitter on by default: the upper bounds 1, 2, 4 s;
    // `coutdown = 5` is a misspelt attribute Celery never reads
    consumers: [
      { id: 'BaseTaskWithRetry', queue: 'celery', attempts: 4, delaysMs: [1000, 2000, 4000], ends: 'discarded' },
    ],
    queues: ['celery'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'celery/shared_task.py': {
    framework: 'celery',
    // @shared_task(retry_backoff=5, retry_kwargs={'max_retries': 3}), jitter on: the upper bounds 5, 10, 20 s
    consumers: [{ id: 'some_task', queue: 'celery', attempts: 4, delaysMs: [5000, 10000, 20000], ends: 'discarded' }],
    queues: ['celery'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'masstransit/MessageNameConsumerDefinition.cs': {
    framework: 'masstransit',
    // the MassTransit template's consumer definition: Intervals(500, 1000), then <queue>_error
    consumers: [
      {
        id: 'MessageName',
        queue: 'MessageName',
        attempts: 3,
        delaysMs: [500, 1000],
        ends: 'queue:MessageName_error',
      },
    ],
    queues: ['MessageName', 'MessageName_error', 'MessageName_skipped'],
    findings: { '3.10': [], '4.x': [] },
  },
  'nservicebus/ImmediateRetriesCodeFirstConfiguration.cs': {
    framework: 'nservicebus',
    // Immediate 3, Delayed absent (3 x 10 s)
    consumers: [{ id: 'endpoint', queue: 'endpoint', attempts: 16, delaysMs: nsb(3, 3, 10_000), ends: 'queue:error' }],
    queues: 25,
    findings: { '3.10': [], '4.x': [] },
    notes: ['stand-in named "endpoint"'],
  },
  'spring-amqp/TgshareRabbitListenerConfig.java': {
    framework: 'spring-amqp',
    // maxAttempts(3), backOffOptions(2000, 2.0, 10000), RejectAndDontRequeueRecoverer; no DLX here: dropped
    consumers: [
      { id: 'listener-listener.queue', queue: 'listener.queue', attempts: 3, delaysMs: [2000, 4000], ends: 'dropped' },
    ],
    queues: ['listener.queue'],
    findings: { '3.10': [], '4.x': [] },
    notes: ['stand-in queue "listener.queue"'],
  },
  'spring-amqp/RabbitMQExceptionHandling.java': {
    framework: 'spring-amqp',
    // maxAttempts(3) alone: RetryTemplate keeps NoBackOffPolicy (no wait), and with no recoverer the
    // stateless interceptor logs "dropped on recovery" and returns: the delivery is acked
    // (setDefaultRequeueRejected(false) never applies)
    consumers: [
      { id: 'listener-listener.queue', queue: 'listener.queue', attempts: 3, delaysMs: [0, 0], ends: 'discarded' },
    ],
    queues: ['listener.queue'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
    notes: ['stand-in queue "listener.queue"'],
  },
  'spring-amqp/BundleRabbitListenerConfiguration.java': {
    framework: 'spring-amqp',
    // maxAttempts(1): one attempt, then RejectAndDontRequeueRecoverer; no DLX here: dropped
    consumers: [{ id: 'listener-listener.queue', queue: 'listener.queue', attempts: 1, delaysMs: [], ends: 'dropped' }],
    queues: ['listener.queue'],
    findings: { '3.10': [], '4.x': [] },
    notes: ['stand-in queue "listener.queue"'],
  },
  'spring-boot/techgeeknext-consumer-application.yml': {
    framework: 'spring-boot',
    // retry on: 6 attempts, 3 s doubling capped at 10 s (as the file's own comment says), then Boot's
    // RejectAndDontRequeueRecoverer; the stand-in queue has no DLX ("sent to the dead letter Queue" needs one)
    consumers: [
      {
        id: 'app-listener',
        queue: 'app.queue',
        attempts: 6,
        delaysMs: [3000, 6000, 10000, 10000, 10000],
        ends: 'dropped',
      },
    ],
    queues: ['app.queue'],
    findings: { '3.10': ['framework-key-ignored'], '4.x': ['framework-key-ignored'] },
    notes: ['declares no queue'],
  },
  'spring-boot/retry-poc-consumer-application.yml': {
    framework: 'spring-boot',
    // 5 attempts, 2 s doubling, max-interval absent (10 s); the stand-in queue is named after spring.application.name
    consumers: [
      {
        id: 'consumer-listener',
        queue: 'consumer.queue',
        attempts: 5,
        delaysMs: [2000, 4000, 8000, 10000],
        ends: 'dropped',
      },
    ],
    queues: ['consumer.queue'],
    findings: { '3.10': ['framework-key-ignored'], '4.x': ['framework-key-ignored'] },
  },
  'spring-boot/retry-mechanism-application.properties': {
    framework: 'spring-boot',
    // 4 attempts, 5 s doubling; default-requeue-rejected=true does not apply: with retry on, Boot's
    // RejectAndDontRequeueRecoverer rejects. 5 concurrent consumers with growing waits and no jitter
    consumers: [
      { id: 'app-listener', queue: 'app.queue', attempts: 4, delaysMs: [5000, 10000, 20000], ends: 'dropped' },
    ],
    queues: ['app.queue'],
    findings: {
      '3.10': ['backoff-without-jitter', 'framework-key-ignored'],
      '4.x': ['backoff-without-jitter', 'framework-key-ignored'],
    },
  },
  'spring-cloud-stream/dlq-ttl-application.yml': {
    framework: 'spring-cloud-stream',
    // binder defaults (3 attempts, 1 s then 2 s), rejected into <group>.dlq (republishToDlq false); the DLQ's
    // 30 min TTL dead-letters back through the destination exchange (dlqDeadLetterExchange) with the
    // queue's own routing key into the group queue: the message goes round for ever
    consumers: [
      { id: 'input', queue: 'output.outputGroup', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'payloadInput', queue: 'payload.payloadGroup', attempts: -1, delaysMs: [], ends: 'cycling' },
    ],
    queues: ['output.outputGroup', 'output.outputGroup.dlq', 'payload.payloadGroup', 'payload.payloadGroup.dlq'],
    findings: { '3.10': [], '4.x': [] },
  },
  'celery/base_task.py': {
    framework: 'celery',
    // retry_backoff=2, max_retries=5, retry_jitter=False: 2 * 2^n s
    consumers: [
      {
        id: 'BaseTaskWithRetry',
        queue: 'celery',
        attempts: 6,
        delaysMs: [2000, 4000, 8000, 16000, 32000],
        ends: 'discarded',
      },
    ],
    queues: ['celery'],
    findings: {
      '3.10': ['app-discards-failures', 'backoff-without-jitter'],
      '4.x': ['app-discards-failures', 'backoff-without-jitter'],
    },
  },
  'celery/task.py': {
    framework: 'celery',
    // retry_backoff=True (factor 1), retry_backoff_max=600, jitter on: the upper bounds 1, 2, 4, 8, 16 s
    consumers: [
      { id: 'Task', queue: 'celery', attempts: 6, delaysMs: [1000, 2000, 4000, 8000, 16000], ends: 'discarded' },
    ],
    queues: ['celery'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'masstransit/SubmitOrderConsumerDefinition.cs': {
    framework: 'masstransit',
    consumers: [
      {
        id: 'SubmitOrder',
        queue: 'SubmitOrder',
        attempts: 4,
        delaysMs: [1000, 1000, 1000],
        ends: 'queue:SubmitOrder_error',
      },
    ],
    queues: ['SubmitOrder', 'SubmitOrder_error', 'SubmitOrder_skipped'],
    findings: { '3.10': [], '4.x': [] },
  },
  'masstransit/FulfillOrderConsumerDefinition.cs': {
    framework: 'masstransit',
    // DiscardFaultedMessages: the fault is not moved to FulfillOrder_error
    consumers: [
      { id: 'FulfillOrder', queue: 'FulfillOrder', attempts: 4, delaysMs: [1000, 1000, 1000], ends: 'discarded' },
    ],
    queues: ['FulfillOrder', 'FulfillOrder_error', 'FulfillOrder_skipped'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
    notes: ['r.Ignore<...>()'],
  },
  'masstransit/OrderStateMachineDefinition.cs': {
    framework: 'masstransit',
    // Intervals(500, 5000, 10000) with ConcurrentMessageLimit = 12: growing waits, no jitter
    consumers: [
      {
        id: 'OrderState',
        queue: 'OrderState',
        attempts: 4,
        delaysMs: [500, 5000, 10000],
        ends: 'queue:OrderState_error',
      },
    ],
    queues: ['OrderState', 'OrderState_error', 'OrderState_skipped'],
    findings: { '3.10': ['backoff-without-jitter'], '4.x': ['backoff-without-jitter'] },
  },
  'nservicebus/DelayedRetriesCodeFirstConfiguration.cs': {
    framework: 'nservicebus',
    // Immediate absent (5), Delayed 2 x 5 min
    consumers: [{ id: 'endpoint', queue: 'endpoint', attempts: 18, delaysMs: nsb(5, 2, 300_000), ends: 'queue:error' }],
    queues: 25,
    findings: { '3.10': [], '4.x': [] },
    notes: ['stand-in named "endpoint"'],
  },
  'nservicebus/Recoverability.cs': {
    framework: 'nservicebus',
    // NServiceBus 5 API: FirstLevelRetries 3, SecondLevelRetries 5 x 30 s (the Disable() method below is another configuration)
    consumers: [{ id: 'endpoint', queue: 'endpoint', attempts: 24, delaysMs: nsb(3, 5, 30_000), ends: 'queue:error' }],
    queues: 25,
    findings: { '3.10': [], '4.x': [] },
    notes: ['FirstLevelRetries().Disable()', 'SecondLevelRetries().Disable()'],
  },
  'nservicebus/Usage.cs': {
    framework: 'nservicebus',
    // Immediate 3, Delayed absent (3 x 10 s)
    consumers: [{ id: 'endpoint', queue: 'endpoint', attempts: 16, delaysMs: nsb(3, 3, 10_000), ends: 'queue:error' }],
    queues: 25,
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-amqp/GlobalErrorHandlerApplication.java': {
    framework: 'spring-amqp',
    // no retry advice, defaultRequeueRejected unset (true): a failing message is requeued for ever
    consumers: [
      {
        id: 'listener-spring.amqp.global.error.handler.demo',
        queue: 'spring.amqp.global.error.handler.demo',
        attempts: -1,
        delaysMs: [],
        ends: 'cycling',
      },
    ],
    queues: ['spring.amqp.global.error.handler.demo'],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
    notes: ['setErrorHandler'],
  },
  'spring-boot/global-errorhandler-application.yml': {
    framework: 'spring-boot',
    // retry.enabled: false, default-requeue-rejected unset (true): requeued for ever; max-attempts is a Boot 2/3 key
    consumers: [{ id: 'app-listener', queue: 'app.queue', attempts: -1, delaysMs: [], ends: 'cycling' }],
    queues: ['app.queue'],
    findings: {
      '3.10': ['framework-key-ignored', 'requeue-rejected-forever'],
      '4.x': ['framework-key-ignored', 'requeue-rejected-forever'],
    },
  },
  'spring-cloud-stream/multi-functions-application.yml': {
    framework: 'spring-cloud-stream',
    // two anonymous consumers, binder defaults: 3 attempts, 1 s then 2 s; republish-to-dlq finds no DLX, so the
    // binder acks (discarded); their AnonymousQueues carry x-queue-master-locator, which 4.x refuses
    consumers: [
      { id: 'sink1-in-0', queue: 'test1.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'discarded' },
      { id: 'sink2-in-0', queue: 'test2.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'discarded' },
    ],
    queues: ['test1.anonymous', 'test2.anonymous'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures', 'framework-queue-refused'] },
  },
  'spring-cloud-stream/partitioning-consumer-application.yml': {
    framework: 'spring-cloud-stream',
    consumers: [
      {
        id: 'input',
        queue: 'partitioned.destination.myGroup-0',
        attempts: 3,
        delaysMs: [1000, 2000],
        ends: 'discarded',
      },
    ],
    queues: ['partitioned.destination.myGroup-0'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'spring-cloud-stream/sensor-average-application.yml': {
    framework: 'spring-cloud-stream',
    consumers: [
      { id: 'receive-in-0', queue: 'average.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'discarded' },
      {
        id: 'calculateAverage-in-0',
        queue: 'sensor.anonymous',
        attempts: 3,
        delaysMs: [1000, 2000],
        ends: 'discarded',
      },
    ],
    queues: ['average.anonymous', 'sensor.anonymous'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures', 'framework-queue-refused'] },
  },
  'spring-amqp/TxGuardInfrastructureConfig.java': {
    framework: 'spring-amqp',
    // constants (int RETRY_MAX_ATTEMPTS = 3, long 1_000L, double 2.0, long 10_000L) read through their
    // values: 3 attempts, waits 1 s and 2 s (the file's own comment promises "1s -> 2s -> 4s": there are
    // two waits); RejectAndDontRequeueRecoverer, DLX "" with the DLQ's name as routing key: parked there.
    // No @RabbitListener here: the advice listens on the queue messages enter (its 24 h TTL would read as a wait queue)
    consumers: [
      {
        id: 'listener-bouncer.charges.received',
        queue: 'bouncer.charges.received',
        attempts: 3,
        delaysMs: [1000, 2000],
        ends: 'queue:bouncer.charges.received.dlq',
      },
    ],
    queues: ['bouncer.charges.received', 'bouncer.charges.received.dlq'],
    findings: { '3.10': [], '4.x': [] },
    notes: ['AcknowledgeMode.MANUAL'],
  },
  'celery/deferred-diffusion-worker.py': {
    framework: 'celery',
    // task_max_retries / task_default_retry_delay are task options written as settings: Celery never reads
    // them; the BaseTask class sets no retry of its own: one attempt, then acked and gone (task_acks_late
    // acks a failure too)
    consumers: [{ id: 'BaseTask', queue: 'celery', attempts: 1, delaysMs: [], ends: 'discarded' }],
    queues: ['celery'],
    findings: {
      '3.10': ['app-discards-failures', 'framework-key-ignored'],
      '4.x': ['app-discards-failures', 'framework-key-ignored'],
    },
    notes: ['task_max_retries is not a Celery setting', 'task_default_retry_delay is not a Celery setting'],
  },
  'rascal/advanced-config.js': {
    framework: 'rascal',
    // Rascal's own advanced example: recovery deferred_retry (forward to retry_in_1m, attempts 10, then nack);
    // the forward's CC delay.1m parks it 1 min in delay:1m, whose DLX retry routes it back by the CC key
    // `<queue>.<key>`: 11 attempts a minute apart, then the nack dead-letters it to dead_letters
    consumers: [
      {
        id: 'save_user',
        queue: 'registration_service:user:save',
        attempts: 11,
        delaysMs: Array(10).fill(60_000),
        ends: 'queue:dead_letters:registration_service',
      },
      {
        id: 'delete_user',
        queue: 'registration_service:user:delete',
        attempts: 11,
        delaysMs: Array(10).fill(60_000),
        ends: 'queue:dead_letters:registration_service',
      },
    ],
    queues: [
      'dead_letters:registration_service',
      'delay:1m',
      'registration_service:user:delete',
      'registration_service:user:save',
    ],
    findings: { '3.10': [], '4.x': [] },
    notes: ['names 2 recovery strategies (deferred_retry, dead_letter)'],
  },
  'rascal/simple-config.json': {
    framework: 'rascal',
    // no recovery in the configuration: ackOrNack(err) falls back to a nack without requeue; no DLX: dropped
    consumers: [{ id: 'demo_sub', queue: 'demo_q', attempts: 1, delaysMs: [], ends: 'dropped' }],
    queues: ['demo_q'],
    findings: { '3.10': [], '4.x': [] },
  },
  'rascal/skf-config.ts': {
    framework: 'rascal',
    // a TypeScript module (Deno); the binding "x -> q" has no key: '#'; prefetch 3; nacked and dropped
    consumers: [
      { id: 'deployment_subscription', queue: 'deployment_queue', attempts: 1, delaysMs: [], ends: 'dropped' },
    ],
    queues: ['deployment_queue'],
    findings: { '3.10': [], '4.x': [] },
  },
  'rascal/multivende-rascalConfig.js': {
    framework: 'rascal',
    // queues and bindings as arrays of objects (bindingKey "key"); nacked and dropped
    consumers: [{ id: 'sub', queue: 'cola-rascal-2', attempts: 1, delaysMs: [], ends: 'dropped' }],
    queues: ['cola-rascal-2'],
    findings: { '3.10': [], '4.x': [] },
  },
  'nestjs-rabbitmq/codeReviewFeedback.consumer.ts': {
    framework: 'nestjs-rabbitmq',
    // no errorBehavior and no module configuration here: the library default REQUEUE redelivers a failing
    // message at once, for ever; the class's @UseFilters exception filter is named as not read
    consumers: [
      {
        id: 'handleSyncCodeReviewReactions',
        queue: 'codeReviewFeedback.syncCodeReviewReactions.queue',
        attempts: -1,
        delaysMs: [],
        ends: 'cycling',
      },
    ],
    queues: ['codeReviewFeedback.syncCodeReviewReactions.queue'],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
    notes: ['@UseFilters(RabbitmqConsumeErrorFilter)'],
  },
  'nestjs-rabbitmq/rabbitmq.module.ts': {
    framework: 'nestjs-rabbitmq',
    // the module configuration alone: its exchanges (a delayed-message exchange, a topic DLX) and dlx.queue; no handler
    consumers: [],
    queues: ['dlx.queue'],
    findings: { '3.10': [], '4.x': [] },
  },
  'nestjs-rabbitmq/submodule.controller.ts': {
    framework: 'nestjs-rabbitmq',
    // the library's own integration app: @RabbitRPC handlers without errorBehavior requeue for ever; those
    // with errorBehavior ACK (their own errorHandler, named as not read) ack a failure: discarded
    consumers: [
      { id: 'rpc', queue: 'rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'interceptedRpc', queue: 'intercepted-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'pipedRpc', queue: 'piped-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'pipedParamRpc', queue: 'piped-param-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'guardedRpc', queue: 'guarded-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'errorReplyRpc', queue: 'error-reply-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'nonJsonRpc', queue: 'non-json-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'hashWildcardRpc', queue: 'hash-wildcard-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'wildcardRpc', queue: 'star-wildcard-rpc-submodule', attempts: 1, delaysMs: [], ends: 'discarded' },
    ],
    queues: 9,
    findings: {
      '3.10': ['app-discards-failures', 'requeue-rejected-forever'],
      '4.x': ['app-discards-failures', 'requeue-rejected-forever'],
    },
    notes: ['errorHandler: a handler of its own decides each failure'],
  },
  'nestjs-rabbitmq/order-stock.service.ts': {
    framework: 'nestjs-rabbitmq',
    // errorBehavior REQUEUE: for ever; the exchange and keys are constants of another file (named as not read)
    // and no queue is named: the broker names one
    consumers: [
      {
        id: 'handleOrderCreated',
        queue: 'server-named.handleOrderCreated',
        attempts: -1,
        delaysMs: [],
        ends: 'cycling',
      },
      { id: 'handleOrderPaid', queue: 'server-named.handleOrderPaid', attempts: -1, delaysMs: [], ends: 'cycling' },
      {
        id: 'handleOrderPaymentFailed',
        queue: 'server-named.handleOrderPaymentFailed',
        attempts: -1,
        delaysMs: [],
        ends: 'cycling',
      },
    ],
    queues: [
      'server-named.handleOrderCreated',
      'server-named.handleOrderPaid',
      'server-named.handleOrderPaymentFailed',
    ],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
    notes: ['the exchange is an expression not read here'],
  },
};
