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
  /** `queue:NAME` (rests there), `dropped`, `acked` (the framework acks and forgets it), `cycling` (never ends) */
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
  'celery/base_task.py': {
    framework: 'celery',
    // retry_backoff=2, max_retries=5, retry_jitter=False: 2 * 2^n s
    consumers: [
      {
        id: 'BaseTaskWithRetry',
        queue: 'celery',
        attempts: 6,
        delaysMs: [2000, 4000, 8000, 16000, 32000],
        ends: 'acked',
      },
    ],
    queues: ['celery'],
    findings: { '3.10': ['backoff-without-jitter'], '4.x': ['backoff-without-jitter'] },
  },
  'celery/task.py': {
    framework: 'celery',
    // retry_backoff=True (factor 1), retry_backoff_max=600, jitter on: the upper bounds 1, 2, 4, 8, 16 s
    consumers: [{ id: 'Task', queue: 'celery', attempts: 6, delaysMs: [1000, 2000, 4000, 8000, 16000], ends: 'acked' }],
    queues: ['celery'],
    findings: { '3.10': [], '4.x': [] },
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
      { id: 'FulfillOrder', queue: 'FulfillOrder', attempts: 4, delaysMs: [1000, 1000, 1000], ends: 'acked' },
    ],
    queues: ['FulfillOrder', 'FulfillOrder_error', 'FulfillOrder_skipped'],
    findings: { '3.10': [], '4.x': [] },
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
    // two anonymous consumers, binder defaults: 3 attempts, 1 s then 2 s, rejected without a DLQ
    consumers: [
      { id: 'sink1-in-0', queue: 'test1.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'dropped' },
      { id: 'sink2-in-0', queue: 'test2.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'dropped' },
    ],
    queues: ['test1.anonymous', 'test2.anonymous'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-cloud-stream/partitioning-consumer-application.yml': {
    framework: 'spring-cloud-stream',
    consumers: [
      { id: 'input', queue: 'partitioned.destination.myGroup-0', attempts: 3, delaysMs: [1000, 2000], ends: 'dropped' },
    ],
    queues: ['partitioned.destination.myGroup-0'],
    findings: { '3.10': [], '4.x': [] },
  },
  'spring-cloud-stream/sensor-average-application.yml': {
    framework: 'spring-cloud-stream',
    consumers: [
      { id: 'receive-in-0', queue: 'average.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'dropped' },
      { id: 'calculateAverage-in-0', queue: 'sensor.anonymous', attempts: 3, delaysMs: [1000, 2000], ends: 'dropped' },
    ],
    queues: ['average.anonymous', 'sensor.anonymous'],
    findings: { '3.10': [], '4.x': [] },
  },
};
