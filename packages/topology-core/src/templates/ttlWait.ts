/** Plugin-free delayed retries with TTL wait queues. */
import type { NodeId } from '../model/nodeIds.js';
import {
  attempt,
  parkingQueue,
  bind,
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
import {
  backoffParams,
  readBackoff,
  delayParam,
  delaysParam,
  maxRetriesParam,
  prefixParam,
  parkingParam,
} from './commonParams.js';
import { settingsParam } from './settingsPlacement.js';

export const dlxTtlWaitQueue = defineTemplate({
  id: 'dlx-ttl-wait-queue',
  title: 'DLX to a TTL wait queue',
  summary:
    'reject -> DLX (routing key = queue name) -> wait queue with x-message-ttl -> back to the origin queue; limit from x-death count',
  params: [prefixParam('orders'), maxRetriesParam(3), delayParam('delayMs', 'Wait', 5000), settingsParam, parkingParam],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const max = p.maxRetries as number;
    const delay = p.delayMs as number;
    const q = `${pre}.q`;
    const wait = `${pre}.wait`;
    const parking = `${pre}.parking`;
    return {
      topology: {
        exchanges: [exchange(pre), exchange(`${pre}.retry`, 'topic'), exchange(`${pre}.requeue`)],
        queues: [
          queue(q, { 'x-dead-letter-exchange': `${pre}.retry`, 'x-dead-letter-routing-key': q }),
          queue(wait, { 'x-message-ttl': delay, 'x-dead-letter-exchange': `${pre}.requeue` }),
          parkingQueue(parking, p),
        ],
        bindings: [bind(pre, q, 'task'), bind(`${pre}.retry`, wait, '#'), bind(`${pre}.requeue`, q, q)],
      },
      consumers: [worker('worker', q, retryThenPark(rejectedIn(q), max, { kind: 'reject' }, parking), 'worker')],
      publishers: [publisher(pre, 'task')],
      explanation:
        `A failed message is rejected (requeue=false). ${q} dead-letters it to ${pre}.retry and replaces its routing key with "${q}", so the wait queue can serve many origin queues. ` +
        `${wait} holds it for x-message-ttl=${delay} ms, then dead-letters it to ${pre}.requeue, which routes it back to ${q} only (other consumers of the original exchange do not see it again). ` +
        `The worker reads the x-death count for (${q}, rejected) and, after ${max} retries, publishes the message to ${parking} and acks it. ` +
        `${max + 1} attempts, ${delay} ms apart. Because every hop ends in a rejection, RabbitMQ's cycle detection never drops it.`,
      columns: [
        [P('publisher')],
        [X(pre), X(`${pre}.requeue`)],
        [Q(q)],
        [C('worker'), X(`${pre}.retry`)],
        [Q(wait), Q(parking)],
      ],
      loop: [Q(q), X(`${pre}.retry`), Q(wait), X(`${pre}.requeue`)],
      workConsumers: ['worker'],
      documented: retryOutcomes(repeat(delay, max), { kind: 'queue', queue: parking }),
    };
  },
});

export const republishTtl = defineTemplate({
  id: 'republish-ttl',
  title: 'Republish with a growing per-message TTL',
  summary: 'ack and republish to a retry exchange with x-retries and an expiration that grows with each retry',
  params: [prefixParam('orders'), ...backoffParams, parkingParam],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const { max, initial, mult, maxDelay, delays } = readBackoff(p);
    const q = `${pre}.q`;
    const wait = `${pre}.wait`;
    const parking = `${pre}.parking`;
    return {
      topology: {
        exchanges: [exchange(pre), exchange(`${pre}.retry`, 'topic'), exchange(`${pre}.requeue`)],
        queues: [queue(q), queue(wait, { 'x-dead-letter-exchange': `${pre}.requeue` }), parkingQueue(parking, p)],
        bindings: [bind(pre, q, 'task'), bind(`${pre}.retry`, wait, '#'), bind(`${pre}.requeue`, q, q)],
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
              exchange: `${pre}.retry`,
              routingKey: q,
              headers: { 'x-retries': { kind: 'counter', by: header('x-retries'), add: 1 } },
              expiration: { kind: 'exponential', initialMs: initial, multiplier: mult, maxMs: maxDelay, by: attempt },
            },
            parking,
          ),
          'worker',
        ),
      ],
      publishers: [publisher(pre, 'task')],
      explanation:
        `On failure the worker publishes a copy to ${pre}.retry with x-retries+1 and a per-message expiration of min(${maxDelay}, ${initial}*${mult}^(n-1)) ms, waits for the confirm, then acks the original. ` +
        `The copy sits in ${wait} (no consumer) until it expires and is dead-lettered through ${pre}.requeue back to ${q}. After ${max} retries it is parked in ${parking}. ` +
        `Delays: ${delays.join(', ') || 'none'} ms. Trap: per-message TTL only expires at the head of the queue, so a long delay in ${wait} holds up every shorter one behind it; and the publish-then-ack pair can duplicate the message if the worker dies between the two.`,
      columns: [
        [P('publisher')],
        [X(pre), X(`${pre}.requeue`)],
        [Q(q)],
        [C('worker')],
        [X(`${pre}.retry`), Q(parking)],
        [Q(wait)],
      ],
      loop: [Q(q), X(`${pre}.retry`), Q(wait), X(`${pre}.requeue`)],
      workConsumers: ['worker'],
      documented: retryOutcomes(delays, { kind: 'queue', queue: parking }),
    };
  },
});

export const chainedTtl = defineTemplate({
  id: 'chained-ttl',
  title: 'Chained TTL tiers',
  summary:
    'a chain of wait queues with growing TTLs, each dead-lettering into the next work queue, then a parking queue',
  // no parking=stream: the last tier parks by dead-lettering, which RabbitMQ 3.10 drops when the target is a stream
  params: [prefixParam('orders'), delaysParam([1000, 5000, 30000]), settingsParam],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const delays = p.delaysMs as readonly number[];
    const n = delays.length;
    const work = (i: number): string => `${pre}.work.${i}`;
    const wait = (i: number): string => `${pre}.wait.${i}`;
    const parking = `${pre}.parking`;
    const retryX = `${pre}.retry`;
    const queues = [];
    const bindings = [bind(pre, work(0), 'task')];
    for (let i = 0; i <= n; i++) {
      queues.push(
        queue(work(i), {
          'x-dead-letter-exchange': retryX,
          'x-dead-letter-routing-key': i < n ? wait(i + 1) : parking,
        }),
      );
      if (i > 0) bindings.push(bind(pre, work(i), work(i)));
    }
    for (let i = 1; i <= n; i++) {
      queues.push(
        queue(wait(i), {
          'x-message-ttl': delays[i - 1]!,
          'x-dead-letter-exchange': pre,
          'x-dead-letter-routing-key': work(i),
        }),
      );
      bindings.push(bind(retryX, wait(i), wait(i)));
    }
    queues.push(queue(parking));
    bindings.push(bind(retryX, parking, parking));
    const consumers = Array.from({ length: n + 1 }, (_, i) =>
      worker(`worker-${i}`, work(i), [{ then: { kind: 'reject' } }], `worker (tier ${i})`),
    );
    const columns: NodeId[][] = [
      [P('publisher')],
      [X(pre)],
      Array.from({ length: n + 1 }, (_, i) => Q(work(i))),
      consumers.map((c) => C(c.id)),
      [X(retryX)],
      [...Array.from({ length: n }, (_, i) => Q(wait(i + 1))), Q(parking)],
    ];
    return {
      topology: { exchanges: [exchange(pre), exchange(retryX)], queues, bindings },
      consumers,
      publishers: [publisher(pre, 'task')],
      explanation:
        `Every tier has its own work queue and wait queue. A rejection in ${work(0)} dead-letters the message to ${retryX} with routing key ${wait(1)}; ` +
        `that wait queue's TTL (${delays[0]} ms) expires it into ${pre} with routing key ${work(1)}, and so on: tier i waits ${delays.join(', ')} ms. ` +
        `A rejection in the last tier (${work(n)}) parks the message in ${parking}. No consumer counts anything: the position in the chain is the retry count, ` +
        `and queue-level TTLs never block each other. The price is ${2 * n + 2} queues and a consumer per tier.`,
      columns,
      workConsumers: consumers.map((c) => c.id),
      documented: [
        {
          failure: { kind: 'always' },
          attempts: n + 1,
          delaysMs: [...delays],
          endsIn: { kind: 'queue', queue: parking },
        },
        // failFirst counts the message's attempts across the tiers' workers: it succeeds in the last tier
        { failure: { kind: 'failFirst', n }, attempts: n + 1, delaysMs: [...delays], endsIn: { kind: 'acked' } },
      ],
    };
  },
});

export const ttlDlqConsumer = defineTemplate({
  id: 'ttl-dlq-consumer',
  title: 'Dead-letter queue consumer decides from x-death',
  summary:
    'a consumer on the dead-letter queue reads x-death count and sends the message back through a TTL wait, or parks it',
  params: [prefixParam('orders'), delaysParam([1000, 10000, 60000]), settingsParam, parkingParam],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const delays = p.delaysMs as readonly number[];
    const max = delays.length;
    const q = `${pre}.q`;
    const dlq = `${pre}.dlq`;
    const wait = `${pre}.wait`;
    const parking = `${pre}.parking`;
    return {
      topology: {
        exchanges: [exchange(pre), exchange(`${pre}.dlx`), exchange(`${pre}.requeue`)],
        queues: [
          queue(q, { 'x-dead-letter-exchange': `${pre}.dlx`, 'x-dead-letter-routing-key': q }),
          queue(dlq),
          queue(wait, { 'x-dead-letter-exchange': `${pre}.requeue`, 'x-dead-letter-routing-key': q }),
          parkingQueue(parking, p),
        ],
        bindings: [bind(pre, q, 'task'), bind(`${pre}.dlx`, dlq, q), bind(`${pre}.requeue`, q, q)],
      },
      consumers: [
        worker('worker', q, [{ then: { kind: 'reject' } }], 'worker'),
        router(
          'dlq-consumer',
          dlq,
          retryThenPark(
            rejectedIn(q),
            max + 1,
            {
              kind: 'republish',
              exchange: '',
              routingKey: wait,
              expiration: { kind: 'curve', values: [...delays], by: rejectedIn(q) },
            },
            parking,
          ),
          'DLQ consumer',
        ),
      ],
      publishers: [publisher(pre, 'task')],
      explanation:
        `The worker only rejects; ${q} dead-letters to ${pre}.dlx and the message lands in ${dlq}. A consumer there reads the x-death entry for (${q}, rejected): ` +
        `while its count is at most ${max} it republishes the message to ${wait} with a per-message expiration taken from the curve ${delays.join(', ')} ms (by count), ` +
        `and ${wait} dead-letters it back to ${q}; after that it parks it in ${parking}. The x-death entry also carries the time of the first death, which a real consumer can use ` +
        `to give up after a wall-clock budget; the declarative model here decides by count only. Per-message TTLs in one wait queue expire only at its head (head-of-line blocking).`,
      columns: [
        [P('publisher')],
        [X(pre), X(`${pre}.requeue`)],
        [Q(q)],
        [C('worker'), X(`${pre}.dlx`)],
        [Q(dlq)],
        [C('dlq-consumer')],
        [Q(wait), Q(parking)],
      ],
      loop: [Q(q), X(`${pre}.dlx`), Q(dlq), Q(wait), X(`${pre}.requeue`)],
      workConsumers: ['worker'],
      documented: retryOutcomes(delays, { kind: 'queue', queue: parking }),
    };
  },
});
