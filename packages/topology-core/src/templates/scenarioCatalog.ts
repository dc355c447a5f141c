/**
 * Which templates are recorded as broker scenarios (src/templates/scenarios/*.json), with
 * small parameters so that a broker run takes seconds. The delayed-exchange templates are
 * recorded in their portable compile (the test broker has no plugin).
 */
export interface TemplateScenarioSpec {
  readonly name: string;
  readonly template: string;
  readonly params: { readonly [k: string]: unknown };
  readonly portable?: boolean;
}

export const TEMPLATE_SCENARIOS: readonly TemplateScenarioSpec[] = [
  { name: 'template-requeue-once', template: 'requeue-once', params: {} },
  { name: 'template-requeue-once-dead-letter', template: 'requeue-once', params: { deadLetter: true } },
  { name: 'template-dlx-ttl-wait-queue', template: 'dlx-ttl-wait-queue', params: { maxRetries: 2, delayMs: 200 } },
  {
    name: 'template-republish-ttl',
    template: 'republish-ttl',
    params: { maxRetries: 3, initialDelayMs: 100, multiplier: 2, maxDelayMs: 1000 },
  },
  { name: 'template-dlx-requeue-consumer', template: 'dlx-requeue-consumer', params: { maxRequeues: 2 } },
  { name: 'template-chained-ttl', template: 'chained-ttl', params: { delaysMs: [100, 250] } },
  { name: 'template-ttl-dlq-consumer', template: 'ttl-dlq-consumer', params: { delaysMs: [100, 300] } },
  {
    name: 'template-spring-stateless-republish',
    template: 'spring-stateless',
    params: { maxAttempts: 3, initialIntervalMs: 10, maxIntervalMs: 50, recoverer: 'republish' },
  },
  {
    name: 'template-spring-stateless-reject',
    template: 'spring-stateless',
    params: { maxAttempts: 2, initialIntervalMs: 10, maxIntervalMs: 50, recoverer: 'reject' },
  },
  {
    name: 'template-spring-stateful-republish',
    template: 'spring-stateful',
    params: { maxAttempts: 3, recoverer: 'republish' },
  },
  { name: 'template-quorum-delivery-limit', template: 'quorum-delivery-limit', params: { deliveryLimit: 2 } },
  {
    name: 'template-delayed-exchange-portable',
    template: 'delayed-exchange',
    params: { maxRetries: 3, initialDelayMs: 100, multiplier: 2, maxDelayMs: 1000 },
    portable: true,
  },
  {
    name: 'template-dlx-delayed-requeue-portable',
    template: 'dlx-delayed-requeue',
    params: { delaysMs: [100, 300] },
    portable: true,
  },
];

/** Stock-3.10 templates that cannot be written as retry-scenario/1, and why. */
export const NOT_RECORDABLE: { readonly [template: string]: string } = {
  'binary-delay-levels':
    'the worker republishes without the old headers (x-death stripped); retry-scenario/1 republish always copies headers',
};
