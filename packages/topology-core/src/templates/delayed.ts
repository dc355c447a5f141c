/** Delays through a delayed-message exchange (plugin rabbitmq_delayed_message_exchange). */
import {
  attempt,
  bind,
  parkingQueue,
  defineTemplate,
  exchange,
  header,
  publisher,
  queue,
  rejectedIn,
  repeat,
  retryOutcomes,
  retryThenPark,
  router,
  worker,
  X,
  Q,
  C,
  P,
} from './build.js';
import { backoffParams, readBackoff, delaysParam, prefixParam, parkingParam } from './commonParams.js';

export const delayedExchange = defineTemplate({
  id: 'delayed-exchange',
  title: 'Republish to a delayed-message exchange',
  summary: 'ack and republish to an x-delayed-message exchange with x-delay and x-retries',
  params: [prefixParam('orders'), ...backoffParams, parkingParam],
  requires: ['x-delayed-message'],
  profile: '3.10',
  runsOnStock310: false,
  build: (p) => {
    const pre = p.prefix as string;
    const { max, initial, mult, maxDelay, delays } = readBackoff(p);
    const q = `${pre}.q`;
    const retryX = `${pre}.retry`;
    const parking = `${pre}.parking`;
    return {
      topology: {
        exchanges: [exchange(pre), exchange(retryX, 'x-delayed-message', { 'x-delayed-type': 'direct' })],
        queues: [queue(q), parkingQueue(parking, p)],
        bindings: [bind(pre, q, 'task'), bind(retryX, q, q)],
      },
      consumers: [
        worker(
          'worker',
          q,
          retryThenPark(
            header('x-retries'),
            max,
            {
              kind: 'republish',
              exchange: retryX,
              routingKey: q,
              headers: {
                'x-retries': { kind: 'counter', by: header('x-retries'), add: 1 },
                'x-delay': { kind: 'exponential', initialMs: initial, multiplier: mult, maxMs: maxDelay, by: attempt },
              },
            },
            parking,
          ),
          'worker',
        ),
      ],
      publishers: [publisher(pre, 'task')],
      explanation:
        `On failure the worker publishes a copy to the x-delayed-message exchange ${retryX} with x-retries+1 and x-delay = min(${maxDelay}, ${initial}*${mult}^(n-1)) ms, then acks. ` +
        `The plugin holds the message and routes it (direct, key ${q}) when the delay ends, so delays never block each other. After ${max} retries the worker parks it in ${parking}. ` +
        `Delays: ${delays.join(', ') || 'none'} ms. Caveats from the plugin's README: delayed messages live in one node's Mnesia table (lost with the node or when the plugin is disabled), ` +
        `mandatory is not supported, and it is meant for modest volumes and delays of seconds to a day or two.`,
      columns: [[P('publisher')], [X(pre)], [Q(q)], [C('worker')], [X(retryX), Q(parking)]],
      loop: [Q(q), X(retryX)],
      workConsumers: ['worker'],
      documented: retryOutcomes(delays, { kind: 'queue', queue: parking }),
    };
  },
});

export const dlxDelayedRequeue = defineTemplate({
  id: 'dlx-delayed-requeue',
  title: 'DLX, delay curve, delayed wait exchange, requeue consumer',
  summary:
    'DLX to an error queue; its consumer picks a delay from a curve and publishes to a delayed exchange; a requeue consumer sends it back to the origin queue',
  params: [prefixParam('notification'), delaysParam([1000, 5000, 30000]), parkingParam],
  requires: ['x-delayed-message'],
  profile: '3.10',
  runsOnStock310: false,
  build: (p) => {
    const pre = p.prefix as string;
    const delays = p.delaysMs as readonly number[];
    const max = delays.length;
    const q = `${pre}.email`;
    const errorQ = `${pre}.error`;
    const requeueQ = `${pre}.requeue`;
    const parking = `${pre}.parking`;
    const errX = `${pre}.error-exchange`;
    const waitX = `${pre}.wait-exchange`;
    return {
      topology: {
        exchanges: [
          exchange(pre, 'fanout'),
          exchange(errX, 'fanout'),
          exchange(waitX, 'x-delayed-message', { 'x-delayed-type': 'fanout' }),
        ],
        queues: [
          queue(q, { 'x-dead-letter-exchange': errX }),
          queue(errorQ),
          queue(requeueQ),
          parkingQueue(parking, p),
        ],
        bindings: [bind(pre, q), bind(errX, errorQ), bind(waitX, requeueQ)],
      },
      consumers: [
        worker('worker', q, [{ then: { kind: 'reject' } }], 'worker'),
        router(
          'error-consumer',
          errorQ,
          retryThenPark(
            rejectedIn(q),
            max + 1,
            {
              kind: 'republish',
              exchange: waitX,
              headers: { 'x-delay': { kind: 'curve', values: [...delays], by: rejectedIn(q) } },
            },
            parking,
          ),
          'error consumer (delay curve)',
        ),
        router(
          'requeue-consumer',
          requeueQ,
          [{ then: { kind: 'republish', exchange: '', routingKeyFromHeader: 'x-first-death-queue' } }],
          'requeue consumer',
        ),
      ],
      publishers: [publisher(pre, '')],
      explanation:
        `The worker rejects; ${q} dead-letters to the fanout ${errX} and the message lands in ${errorQ}. The error consumer reads the x-death count for (${q}, rejected) and picks the delay from the curve ` +
        `${delays.join(', ')} ms, publishing to the delayed exchange ${waitX}; when the delay ends the message reaches ${requeueQ}, whose consumer sends it to the queue named in x-first-death-queue ` +
        `through the default exchange (the tail of ${q}, and only ${q}). After ${max} retries the error consumer parks it in ${parking}. Three consumers and two publish-then-ack hops per retry.`,
      columns: [
        [P('publisher')],
        [X(pre)],
        [Q(q)],
        [C('worker'), X(errX)],
        [Q(errorQ)],
        [C('error-consumer')],
        [X(waitX), Q(parking)],
        [Q(requeueQ)],
        [C('requeue-consumer')],
      ],
      loop: [Q(q), X(errX), Q(errorQ), X(waitX), Q(requeueQ)],
      workConsumers: ['worker'],
      documented: retryOutcomes(delays, { kind: 'queue', queue: parking }),
    };
  },
});

export const dlxRequeueConsumer = defineTemplate({
  id: 'dlx-requeue-consumer',
  title: 'DLX to an error exchange, requeue consumer',
  summary:
    'a requeue consumer reads x-first-death-queue and the rejected count and sends the message back to the tail of the origin queue, up to a maximum',
  params: [
    prefixParam('notification'),
    { name: 'maxRequeues', label: 'Requeues', type: 'integer', default: 2, min: 0, max: 50, unit: 'count' },
    parkingParam,
  ],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const max = p.maxRequeues as number;
    const q = `${pre}.email`;
    const other = `${pre}.webhook`;
    const errX = `${pre}.error-exchange`;
    const requeueQ = `${pre}.requeue`;
    const parking = `${pre}.parking`;
    return {
      topology: {
        exchanges: [exchange(pre, 'fanout'), exchange(errX, 'fanout')],
        queues: [
          queue(q, { 'x-dead-letter-exchange': errX }),
          queue(other, { 'x-dead-letter-exchange': errX }),
          queue(requeueQ),
          parkingQueue(parking, p),
        ],
        bindings: [bind(pre, q), bind(pre, other), bind(errX, requeueQ)],
      },
      consumers: [
        worker('worker', q, [{ then: { kind: 'reject' } }], 'email worker'),
        {
          id: 'webhook',
          queue: other,
          label: 'webhook worker (always ok)',
          prefetch: 1,
          behaviour: { kind: 'script', actions: [{ kind: 'ack' }] },
        },
        router(
          'requeue-consumer',
          requeueQ,
          retryThenPark(
            rejectedIn(q),
            max + 1,
            { kind: 'republish', exchange: '', routingKeyFromHeader: 'x-first-death-queue' },
            parking,
          ),
          'requeue consumer',
        ),
      ],
      publishers: [publisher(pre, '')],
      explanation:
        `${pre} fans out to ${q} and ${other}; both dead-letter into the fanout ${errX}, which feeds ${requeueQ}. The requeue consumer republishes a dead letter through the default exchange ` +
        `to the queue named in x-first-death-queue, so it returns to the tail of the queue that failed it and nowhere else (the other subscriber does not get a duplicate). ` +
        `The x-death count for (${q}, rejected) caps it at ${max} requeues, then the message is parked in ${parking}. There is no delay: retries are as fast as the requeue consumer.`,
      columns: [
        [P('publisher')],
        [X(pre)],
        [Q(q), Q(other)],
        [C('worker'), C('webhook')],
        [X(errX)],
        [Q(requeueQ)],
        [C('requeue-consumer'), Q(parking)],
      ],
      loop: [Q(q), X(errX), Q(requeueQ)],
      workConsumers: ['worker'],
      documented: retryOutcomes(repeat(0, max), { kind: 'queue', queue: parking }),
    };
  },
});
