/** Immediate retries: requeue once (redelivered flag) and a quorum queue's delivery limit. */
import {
  bind,
  defineTemplate,
  exchange,
  publisher,
  queue,
  worker,
  X,
  Q,
  C,
  P,
  repeat,
  retryOutcomes,
} from './build.js';
import { prefixParam } from './commonParams.js';

export const requeueOnce = defineTemplate({
  id: 'requeue-once',
  title: 'Requeue once, then reject',
  summary: 'basic.nack requeue=true on the first failure, reject for good when the redelivered flag is set',
  params: [
    prefixParam('orders'),
    { name: 'deadLetter', label: 'Dead-letter the final reject', type: 'boolean', default: false },
  ],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const dl = p.deadLetter as boolean;
    const q = `${pre}.q`;
    const dead = `${pre}.dead`;
    return {
      topology: {
        exchanges: [exchange(pre), ...(dl ? [exchange(`${pre}.dlx`, 'fanout')] : [])],
        queues: [queue(q, dl ? { 'x-dead-letter-exchange': `${pre}.dlx` } : {}), ...(dl ? [queue(dead)] : [])],
        bindings: [bind(pre, q, 'task'), ...(dl ? [bind(`${pre}.dlx`, dead)] : [])],
      },
      consumers: [
        worker(
          'worker',
          q,
          [{ when: { kind: 'redelivered', is: false }, then: { kind: 'requeue' } }, { then: { kind: 'reject' } }],
          'worker',
        ),
      ],
      publishers: [publisher(pre, 'task')],
      explanation:
        `The worker nacks a failed message with requeue=true, so RabbitMQ puts it back at its original position and redelivers it at once with redelivered=true. ` +
        `On a redelivered message the worker rejects without requeue: ${dl ? `the queue dead-letters it to ${pre}.dlx and it lands in ${dead}` : 'the queue has no dead-letter exchange, so the message is gone'}. ` +
        `Two attempts with no delay between them; the redelivered flag is also set after a consumer crash, so a message that crashed its first consumer gets no retry at all.`,
      columns: [
        [P('publisher')],
        [X(pre)],
        [Q(q)],
        [C('worker'), ...(dl ? [X(`${pre}.dlx`)] : [])],
        dl ? [Q(dead)] : [],
      ],
      workConsumers: ['worker'],
      documented: retryOutcomes([0], dl ? { kind: 'queue', queue: dead } : { kind: 'dropped' }),
    };
  },
});

export const quorumDeliveryLimit = defineTemplate({
  id: 'quorum-delivery-limit',
  title: 'Quorum queue delivery limit',
  summary: 'requeue on failure; the quorum queue dead-letters after x-delivery-limit returns',
  params: [
    prefixParam('jobs'),
    { name: 'deliveryLimit', label: 'Delivery limit', type: 'integer', default: 3, min: 0, max: 1000, unit: 'count' },
  ],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const limit = p.deliveryLimit as number;
    const q = `${pre}.q`;
    const dead = `${pre}.dead`;
    return {
      topology: {
        exchanges: [exchange(pre), exchange(`${pre}.dlx`, 'fanout')],
        queues: [
          queue(q, { 'x-queue-type': 'quorum', 'x-delivery-limit': limit, 'x-dead-letter-exchange': `${pre}.dlx` }),
          queue(dead),
        ],
        bindings: [bind(pre, q, 'job'), bind(`${pre}.dlx`, dead)],
      },
      consumers: [worker('worker', q, [{ then: { kind: 'requeue' } }], 'worker')],
      publishers: [publisher(pre, 'job')],
      explanation:
        `The worker simply requeues failures (nack requeue=true). The quorum queue counts returns in x-delivery-count; once a message has been returned more than ${limit} times ` +
        `it is dead-lettered with reason delivery_limit to ${pre}.dlx and lands in ${dead}. ${limit + 1} attempts, back to back, with no delay. ` +
        `With a delivery limit set, RabbitMQ 3.10 puts returned messages before the other ready ones, so a poison message is retried immediately (head-of-line). ` +
        `x-delivery-limit is immutable once declared: change it through a policy.`,
      columns: [[P('publisher')], [X(pre)], [Q(q)], [C('worker'), X(`${pre}.dlx`)], [Q(dead)]],
      workConsumers: ['worker'],
      documented: retryOutcomes(repeat(0, limit), { kind: 'queue', queue: dead }),
    };
  },
});
