/**
 * Spring AMQP retry interceptors: stateless (retries inside the listener call) and stateful
 * (rethrow, the broker redelivers), with the reject / republish / requeue recoverers and the
 * ConditionalRejectingErrorHandler (fatal errors are rejected without retry).
 */
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import {
  attempt,
  backoffSchedule,
  bind,
  defineTemplate,
  exchange,
  publisher,
  queue,
  repeat,
  retryOutcomes,
  worker,
  X,
  Q,
  C,
  P,
} from './build.js';
import { ordinal } from '../text/ordinal.js';
import { delayParam, multiplierParam, prefixParam } from './commonParams.js';
import type { DocumentedOutcome, ParamSpec, ParamValues } from './types.js';

const FATAL_HEADER = 'x-fatal';
const maxAttemptsParam: ParamSpec = {
  name: 'maxAttempts',
  label: 'Max attempts',
  type: 'integer',
  default: 3,
  min: 1,
  max: 50,
  unit: 'count',
};
const recovererParam = (options: string[]): ParamSpec => ({
  name: 'recoverer',
  label: 'Recoverer',
  type: 'enum',
  default: 'republish',
  options,
});

function springTopology(pre: string) {
  const q = `${pre}.q`;
  return {
    q,
    dlq: `${pre}.dlq`,
    errorQ: `${q}.error`,
    errorX: `${pre}.error`,
    topology: {
      exchanges: [exchange(pre), exchange(`${pre}.dlx`, 'fanout'), exchange(`${pre}.error`, 'topic')],
      queues: [queue(q, { 'x-dead-letter-exchange': `${pre}.dlx` }), queue(`${pre}.dlq`), queue(`${q}.error`)],
      bindings: [bind(pre, q, 'task'), bind(`${pre}.dlx`, `${pre}.dlq`), bind(`${pre}.error`, `${q}.error`, 'error.#')],
    },
    publishers: [publisher(pre, 'task')],
    columns: [
      [P('publisher')],
      [X(pre)],
      [Q(q)],
      [C('listener'), X(`${pre}.dlx`), X(`${pre}.error`)],
      [Q(`${pre}.dlq`), Q(`${q}.error`)],
    ],
  };
}

function recoverAction(kind: string, errorX: string): ConsumerAction {
  if (kind === 'reject') return { kind: 'reject' };
  if (kind === 'requeue') return { kind: 'requeue' };
  return { kind: 'republish', exchange: errorX, routingKey: 'error.task', exceptionHeaders: true };
}

/** Where a message ends once the recoverer has it (the requeue recoverer never ends it). */
function recoveredIn(kind: string, t: ReturnType<typeof springTopology>): string {
  return kind === 'reject' ? t.dlq : t.errorQ;
}

function recoverStory(kind: string, t: ReturnType<typeof springTopology>): string {
  if (kind === 'reject') return `RejectAndDontRequeueRecoverer rejects it, and ${t.q} dead-letters it into ${t.dlq}`;
  if (kind === 'requeue')
    return `ImmediateRequeueMessageRecoverer requeues it, so the whole retry sequence starts again at once: a message that always fails loops forever`;
  return `RepublishMessageRecoverer publishes it to ${t.errorX} with routing key error.task and x-exception-message, x-exception-stacktrace, x-original-exchange and x-original-routingKey headers, then acks it; it lands in ${t.errorQ}`;
}

const fatalRule = {
  when: { kind: 'hasHeader' as const, name: FATAL_HEADER, is: true },
  then: { kind: 'reject' as const },
};

/** The listener container: the ConditionalRejectingErrorHandler rejects fatal errors before the retry interceptor sees them. */
const listener = (t: ReturnType<typeof springTopology>, rules: readonly Rule[], label: string): ConsumerSpec =>
  worker('listener', t.q, [fatalRule, ...rules], label);

export const springStateless = defineTemplate({
  id: 'spring-stateless',
  title: 'Spring AMQP stateless retry',
  summary: 'RetryInterceptorBuilder.stateless(): retries inside the listener with backoff, then a recoverer',
  params: [
    prefixParam('orders'),
    maxAttemptsParam,
    delayParam('initialIntervalMs', 'Initial interval', 1000),
    multiplierParam,
    delayParam('maxIntervalMs', 'Max interval', 10000),
    recovererParam(['reject', 'republish', 'requeue']),
  ],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p: ParamValues) => {
    const pre = p.prefix as string;
    const max = p.maxAttempts as number;
    const [initial, mult, maxI] = [p.initialIntervalMs as number, p.multiplier as number, p.maxIntervalMs as number];
    const rec = p.recoverer as string;
    const t = springTopology(pre);
    const delays = backoffSchedule(initial, mult, maxI, max - 1);
    const documented: DocumentedOutcome[] =
      rec === 'requeue'
        ? [{ failure: { kind: 'always' }, attempts: 'unbounded', delaysMs: [], endsIn: { kind: 'cycling' } }]
        : [
            {
              failure: { kind: 'always' },
              attempts: max,
              delaysMs: delays,
              endsIn: { kind: 'queue', queue: recoveredIn(rec, t) },
            },
          ];
    if (max >= 2)
      documented.push({
        failure: { kind: 'failFirst', n: 1 },
        attempts: 2,
        delaysMs: delays.slice(0, 1),
        endsIn: { kind: 'acked' },
      });
    return {
      topology: t.topology,
      consumers: [
        listener(
          t,
          [
            {
              then: {
                kind: 'retryInProcess',
                maxAttempts: max,
                backoff: { initialMs: initial, multiplier: mult, maxMs: maxI },
                recover: recoverAction(rec, t.errorX),
              },
            },
          ],
          'listener (stateless retry)',
        ),
      ],
      publishers: t.publishers,
      explanation:
        `The stateless interceptor retries inside the listener call: the delivery stays unacked while the listener runs up to ${max} times, sleeping ${delays.join(', ') || 'nothing'} ms between attempts ` +
        `(exponential backoff ${initial} ms x${mult}, at most ${maxI} ms). The broker sees one delivery; the consumer's prefetch slot is blocked for the whole sequence. ` +
        `When the attempts are used up, ${recoverStory(rec, t)}. A message carrying ${FATAL_HEADER} stands for a fatal error (for example a conversion failure): ` +
        `the ConditionalRejectingErrorHandler rejects it at once without retrying, so it goes to ${t.dlq}.`,
      columns: t.columns,
      workConsumers: ['listener'],
      documented,
    };
  },
});

export const springStateful = defineTemplate({
  id: 'spring-stateful',
  title: 'Spring AMQP stateful retry',
  summary: 'RetryInterceptorBuilder.stateful(): rethrow so the broker redelivers; after max attempts a recoverer',
  params: [prefixParam('orders'), maxAttemptsParam, recovererParam(['reject', 'republish'])],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p: ParamValues) => {
    const pre = p.prefix as string;
    const max = p.maxAttempts as number;
    const rec = p.recoverer as string;
    const t = springTopology(pre);
    return {
      topology: t.topology,
      consumers: [
        listener(
          t,
          [
            { when: { kind: 'lt', counter: attempt, value: max }, then: { kind: 'requeue' } },
            { then: recoverAction(rec, t.errorX) },
          ],
          'listener (stateful retry)',
        ),
      ],
      publishers: t.publishers,
      explanation:
        `The stateful interceptor remembers each message by its id and rethrows, so the container nacks with requeue=true and the broker redelivers it (redelivered=true), ` +
        `at its original position, at once. On the ${ordinal(max)} failed delivery the recoverer runs instead: ${recoverStory(rec, t)}. ` +
        `The attempt count lives in the consumer's memory: a restart or a second consumer instance resets it, and a message without a message id cannot be tracked. ` +
        `Spring's backoff between stateful attempts is a sleep before the rethrow; it is not modelled here (the retries are immediate). ` +
        `Messages with ${FATAL_HEADER} are rejected at once by the ConditionalRejectingErrorHandler.`,
      columns: t.columns,
      workConsumers: ['listener'],
      documented: retryOutcomes(repeat(0, max - 1), { kind: 'queue', queue: recoveredIn(rec, t) }),
    };
  },
});
