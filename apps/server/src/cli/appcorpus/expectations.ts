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
  'nestjs-rabbitmq/submodule.controller.ts': {
    framework: 'nestjs-rabbitmq',
    // the library's own integration app, all @RabbitRPC handlers: from 4.1.0 the module's defaultRpcErrorHandler
    // (REQUEUE) handles an RPC failure before errorBehavior is looked at, so errorBehavior ACK is a key the library
    // never uses (framework-key-ignored); the handlers with their own errorHandler (ReplyErrorCallback, not read)
    // are modelled as the RPC default and proved as "unknown"
    consumers: [
      { id: 'rpc', queue: 'rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'interceptedRpc', queue: 'intercepted-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'pipedRpc', queue: 'piped-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'pipedParamRpc', queue: 'piped-param-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'guardedRpc', queue: 'guarded-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'errorReplyRpc', queue: 'error-reply-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'nonJsonRpc', queue: 'non-json-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'hashWildcardRpc', queue: 'hash-wildcard-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
      { id: 'wildcardRpc', queue: 'star-wildcard-rpc-submodule', attempts: -1, delaysMs: [], ends: 'cycling' },
    ],
    queues: 9,
    findings: {
      '3.10': ['framework-key-ignored', 'requeue-rejected-forever'],
      '4.x': ['framework-key-ignored', 'requeue-rejected-forever'],
    },
    notes: ["errorHandler: a handler of the application's own decides each failure"],
  },
  // ---- written for the corpus (not public files: README.md says why), in the shapes of real ones ----
  'spring-boot/written-retry-defaults-application.yml': {
    framework: 'spring-boot',
    // retry on, every other key Boot's default (Boot 2/3: 3 attempts, 1 s apart), then Boot's
    // RejectAndDontRequeueRecoverer; the stand-in queue has no DLX: dropped
    consumers: [
      {
        id: 'invoice-worker-listener',
        queue: 'invoice-worker.queue',
        attempts: 3,
        delaysMs: [1000, 1000],
        ends: 'dropped',
      },
    ],
    queues: ['invoice-worker.queue'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-boot/written-exponential-application.properties': {
    framework: 'spring-boot',
    // 5 attempts doubling from 500 ms, capped at 3 s; default-requeue-rejected=false; max-attempts is the key Boot 4 ignores
    consumers: [
      {
        id: 'shipment-events-listener',
        queue: 'shipment-events.queue',
        attempts: 5,
        delaysMs: [500, 1000, 2000, 3000],
        ends: 'dropped',
      },
    ],
    queues: ['shipment-events.queue'],
    findings: { '3.10': ['framework-key-ignored'], '4.x': ['framework-key-ignored'] },
  },
  'spring-boot/written-boot4-application.yml': {
    framework: 'spring-boot',
    // only Boot 4's max-retries: read as Boot 4 (said), 3 retries = 4 attempts, 400 ms tripling, capped at 5 s
    consumers: [
      {
        id: 'ledger-projector-listener',
        queue: 'ledger-projector.queue',
        attempts: 4,
        delaysMs: [400, 1200, 3600],
        ends: 'dropped',
      },
    ],
    queues: ['ledger-projector.queue'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-boot/written-retry-off-application.yml': {
    framework: 'spring-boot',
    // a trap: retry off and default-requeue-rejected left at the container's true: requeued at once, for ever
    consumers: [
      {
        id: 'notification-dispatcher-listener',
        queue: 'notification-dispatcher.queue',
        attempts: -1,
        delaysMs: [],
        ends: 'cycling',
      },
    ],
    queues: ['notification-dispatcher.queue'],
    findings: {
      '3.10': ['framework-key-ignored', 'requeue-rejected-forever'],
      '4.x': ['framework-key-ignored', 'requeue-rejected-forever'],
    },
  },
  'spring-amqp/WrittenPaymentsListenerConfig.java': {
    framework: 'spring-amqp',
    // defaults: a factory with no advice and the container's default-requeue-rejected (true): for ever
    consumers: [
      { id: 'listener-payments.captured', queue: 'payments.captured', attempts: -1, delaysMs: [], ends: 'cycling' },
    ],
    queues: ['payments.captured'],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
  },
  'spring-amqp/WrittenOrdersRetryConfig.java': {
    framework: 'spring-amqp',
    // constants: 4 attempts, 500 ms doubling to 2 s, RejectAndDontRequeueRecoverer into the queue's DLX and DLQ
    consumers: [
      {
        id: 'listener-orders.created',
        queue: 'orders.created',
        attempts: 4,
        delaysMs: [500, 1000, 2000],
        ends: 'queue:orders.created.dlq',
      },
    ],
    queues: ['orders.created', 'orders.created.dlq'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-amqp/WrittenInventoryErrorRoutingConfig.java': {
    framework: 'spring-amqp',
    // a recoverer bean: RepublishMessageRecoverer to the error exchange (constants), whose #.failed binding parks it
    consumers: [
      {
        id: 'listener-inventory.stock-adjusted',
        queue: 'inventory.stock-adjusted',
        attempts: 3,
        delaysMs: [1000, 1000],
        ends: 'queue:inventory.parking-lot',
      },
    ],
    queues: ['inventory.parking-lot', 'inventory.stock-adjusted'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-cloud-stream/written-dlq-backoff-application.yml': {
    framework: 'spring-cloud-stream',
    // a group with auto-bind-dlq: 4 attempts, 500 ms doubling to 2 s, then republished to the DLQ (republish-to-dlq's default)
    consumers: [
      {
        id: 'chargeOrder-in-0',
        queue: 'orders.billing',
        attempts: 4,
        delaysMs: [500, 1000, 2000],
        ends: 'queue:orders.billing.dlq',
      },
    ],
    queues: ['orders.billing', 'orders.billing.dlq'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-cloud-stream/written-dlq-ttl-loop-application.yml': {
    framework: 'spring-cloud-stream',
    // a trap: rejected into the DLQ, whose 3 s TTL dead-letters back to the group queue: round and round
    consumers: [{ id: 'syncCustomer-in-0', queue: 'customers.crm-sync', attempts: -1, delaysMs: [], ends: 'cycling' }],
    queues: ['customers.crm-sync', 'customers.crm-sync.dlq'],
    findings: { '3.10': [], '4.x': [] },
  },
  'celery/written_autoretry_tasks.py': {
    framework: 'celery',
    // autoretry_for with retry_backoff=True (factor 1) and the default jitter: upper bounds 1, 2, 4 s; then discarded
    consumers: [
      { id: 'refresh_exchange_rates', queue: 'celery', attempts: 4, delaysMs: [1000, 2000, 4000], ends: 'discarded' },
    ],
    queues: ['celery'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'celery/written_explicit_retry.py': {
    framework: 'celery',
    // self.retry(countdown=2) with max_retries=2; task_acks_late: the failed task's message is acked all the same
    consumers: [{ id: 'charge_card', queue: 'celery', attempts: 3, delaysMs: [2000, 2000], ends: 'discarded' }],
    queues: ['celery'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
  'rascal/written-republish-config.json': {
    framework: 'rascal',
    // republish 3 times 1 s apart, then nack: the queue's DLX parks it
    consumers: [
      {
        id: 'fulfil_order',
        queue: 'orders:fulfil',
        attempts: 4,
        delaysMs: [1000, 1000, 1000],
        ends: 'queue:orders:fulfil:dead',
      },
    ],
    queues: ['orders:fulfil', 'orders:fulfil:dead'],
    findings: { '3.10': [], '4.x': [] },
  },
  'rascal/written-forward-delay-config.js': {
    framework: 'rascal',
    // forward through a 2 s TTL queue (a constant) 3 times, back by the CC key Rascal adds, then nack to the dead letters
    consumers: [
      {
        id: 'send_email',
        queue: 'notifications:email:send',
        attempts: 4,
        delaysMs: [2000, 2000, 2000],
        ends: 'queue:dead_letters:notifications',
      },
    ],
    queues: ['dead_letters:notifications', 'delay:2s', 'notifications:email:send'],
    findings: { '3.10': [], '4.x': [] },
  },
  'rascal/written-nack-requeue-config.json': {
    framework: 'rascal',
    // a trap: nack with requeue and a redelivery limit on the default stub counter, which never counts: for ever
    consumers: [{ id: 'ingest_reading', queue: 'telemetry:ingest', attempts: -1, delaysMs: [], ends: 'cycling' }],
    queues: ['telemetry:ingest'],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
  },
  'nestjs-rabbitmq/written-defaults.consumer.ts': {
    framework: 'nestjs-rabbitmq',
    // no errorBehavior: the library's default REQUEUE, a nack with requeue, for ever
    consumers: [{ id: 'onProductUpdated', queue: 'search.product-index', attempts: -1, delaysMs: [], ends: 'cycling' }],
    queues: ['search.product-index'],
    findings: { '3.10': ['requeue-rejected-forever'], '4.x': ['requeue-rejected-forever'] },
  },
  'nestjs-rabbitmq/written-dlq.consumer.ts': {
    framework: 'nestjs-rabbitmq',
    // errorBehavior NACK with the queue's dead-letter exchange, declared by the module in the same file
    consumers: [
      {
        id: 'bookCarrier',
        queue: 'shipping.book-carrier',
        attempts: 1,
        delaysMs: [],
        ends: 'queue:shipping.book-carrier.dead',
      },
    ],
    queues: ['shipping.book-carrier', 'shipping.book-carrier.dead'],
    findings: { '3.10': [], '4.x': [] },
  },
  'nestjs-rabbitmq/written-swallow.consumer.ts': {
    framework: 'nestjs-rabbitmq',
    // a catch that logs and returns: acked, discarded; a catch that returns new Nack(false): rejected, no DLX: dropped
    consumers: [
      { id: 'awardPoints', queue: 'loyalty.award-points', attempts: 1, delaysMs: [], ends: 'discarded' },
      { id: 'revokePoints', queue: 'loyalty.revoke-points', attempts: 1, delaysMs: [], ends: 'dropped' },
    ],
    queues: ['loyalty.award-points', 'loyalty.revoke-points'],
    findings: { '3.10': ['app-discards-failures'], '4.x': ['app-discards-failures'] },
  },
};
