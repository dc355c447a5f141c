/** RabbitMQ 4.3's native quorum-queue delayed retry (x-delayed-retry-*). */
import { bind, defineTemplate, exchange, publisher, queue, worker, X, Q, C, P } from './build.js';
import { delayParam, prefixParam } from './commonParams.js';

export const quorumDelayedRetry = defineTemplate({
  id: 'quorum-delayed-retry',
  title: 'Quorum queue native delayed retry (RabbitMQ 4.3)',
  summary:
    'x-delayed-retry-type on a quorum queue: returned messages wait min(min x count, max) before redelivery; a delivery limit and DLX end it',
  params: [
    prefixParam('jobs'),
    { name: 'deliveryLimit', label: 'Delivery limit', type: 'integer', default: 3, min: 1, max: 1000, unit: 'count' },
    delayParam('minDelayMs', 'x-delayed-retry-min', 1000),
    delayParam('maxDelayMs', 'x-delayed-retry-max', 10000),
  ],
  requires: [],
  // opens under the profile it is for: 4.3 (under 4.0-4.2 the arguments do nothing)
  profile: '4.3',
  runsOnStock310: false,
  build: (p) => {
    const pre = p.prefix as string;
    const limit = p.deliveryLimit as number;
    const [min, max] = [p.minDelayMs as number, p.maxDelayMs as number];
    const q = `${pre}.q`;
    const dead = `${pre}.dead`;
    const delays = Array.from({ length: limit }, (_, i) => Math.min(min * (i + 1), max));
    return {
      topology: {
        exchanges: [exchange(pre), exchange(`${pre}.dlx`, 'fanout')],
        queues: [
          queue(q, {
            'x-queue-type': 'quorum',
            'x-delivery-limit': limit,
            'x-delayed-retry-type': 'all',
            'x-delayed-retry-min': min,
            'x-delayed-retry-max': max,
            'x-dead-letter-exchange': `${pre}.dlx`,
          }),
          queue(dead),
        ],
        bindings: [bind(pre, q, 'job'), bind(`${pre}.dlx`, dead)],
      },
      // basic.reject requeue=true: in 4.3 only a reject increments delivery-count (docs quorum-queues, "When is delivery count incremented?")
      consumers: [worker('worker', q, [{ then: { kind: 'requeue', via: 'reject' } }], 'worker')],
      publishers: [publisher(pre, 'job')],
      explanation:
        `RabbitMQ 4.3 quorum queues can delay redelivery themselves: with x-delayed-retry-type=all, a returned message becomes ready again only after min(${min} x delivery count, ${max}) ms ` +
        `(${delays.join(', ')} ms here). No wait queues, no plugin, no republish: the worker just rejects with requeue (basic.reject requeue=true; a basic.nack does not increment the delivery count in 4.3, so it would wait the minimum every time and never reach the limit). After ${limit} returns the delivery limit dead-letters it to ${dead}. ` +
        `Simulated under the RabbitMQ 4.3 profile; a 3.10-4.2 broker does not know these arguments (deploy reports it unsupported).`,
      columns: [[P('publisher')], [X(pre)], [Q(q)], [C('worker'), X(`${pre}.dlx`)], [Q(dead)]],
      workConsumers: ['worker'],
      documented: [
        { failure: { kind: 'always' }, attempts: limit + 1, delaysMs: delays, endsIn: { kind: 'queue', queue: dead } },
      ],
    };
  },
});
