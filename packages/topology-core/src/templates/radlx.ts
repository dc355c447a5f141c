/**
 * The four topologies of the radlx plugin's README (iifawzi/rabbitmq-retry-aware-dlx).
 * The plugin needs RabbitMQ 3.13+, so these simulate under the 4.x profile.
 */
import type { AmqpTable } from '../model/definitions.js';
import {
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
import { delayParam, prefixParam } from './commonParams.js';
import type { DocumentedOutcome, ParamSpec } from './types.js';

const maxPerCycleParam = (def: number): ParamSpec => ({
  name: 'maxPerCycle',
  label: 'Attempts per cycle (radlx-max-per-cycle)',
  type: 'integer',
  default: def,
  min: 1,
  max: 50,
  unit: 'count',
});
const radlxHeaders = (max: number, track: string, extra: AmqpTable = {}): AmqpTable => ({
  'radlx-max-per-cycle': max,
  'radlx-track-queue': track,
  ...extra,
});
const deadBinding = (track: string, extra: AmqpTable = {}, match = 'all'): AmqpTable => ({
  'x-match': match,
  'radlx.dead.source': track,
  ...extra,
});
const NOTE =
  'The radlx plugin exists for RabbitMQ 3.13.2 to 4.1.x only, so this design is simulated under the 4.x profile and cannot be deployed to 3.10.';

export const radlxSimple = defineTemplate({
  id: 'radlx-simple',
  title: 'radlx: simple retry with a DLQ',
  summary:
    'the radlx exchange routes a rejected message back (topic) until count % max == 0, then to the DLQ (headers)',
  params: [prefixParam('orders'), maxPerCycleParam(2)],
  requires: ['radlx'],
  profile: '4.x',
  runsOnStock310: false,
  build: (p) => {
    const q = p.prefix as string;
    const max = p.maxPerCycle as number;
    const dlx = `${q}.dlx`;
    const failed = `${q}.failed`;
    return {
      topology: {
        exchanges: [exchange(dlx, 'radlx')],
        queues: [queue(q, { 'x-dead-letter-exchange': dlx }), queue(failed)],
        bindings: [bind(dlx, q, q), bind(dlx, failed, '', deadBinding(q))],
      },
      consumers: [worker('worker', q, [{ then: { kind: 'reject' } }], 'worker')],
      publishers: [publisher('', q, radlxHeaders(max, q))],
      explanation:
        `Messages carry radlx-max-per-cycle=${max} and radlx-track-queue=${q}. The worker only rejects; ${q} dead-letters to the radlx exchange ${dlx}. ` +
        `While the x-death count for (${q}, rejected) is not a multiple of ${max}, radlx routes by topic semantics and the binding "${q}" sends it straight back; ` +
        `at a multiple of ${max} it matches with headers semantics plus radlx.dead.source=${q}, and the message lands in ${failed}. ${max} attempts, no delay, and no publish-then-ack in the application. ${NOTE}`,
      columns: [[P('publisher')], [Q(q)], [C('worker'), X(dlx)], [Q(failed)]],
      loop: [Q(q), X(dlx)],
      workConsumers: ['worker'],
      documented: retryOutcomes(repeat(0, max - 1), { kind: 'queue', queue: failed }),
    };
  },
});

export const radlxDelayQueue = defineTemplate({
  id: 'radlx-delay-queue',
  title: 'radlx: retry through a TTL delay queue',
  summary:
    'radlx routes retries to a TTL delay queue that dead-letters to a router back to the source; the last death goes to the DLQ',
  params: [prefixParam('orders'), maxPerCycleParam(3), delayParam('delayMs', 'Delay', 5000)],
  requires: ['radlx'],
  profile: '4.x',
  runsOnStock310: false,
  build: (p) => {
    const q = p.prefix as string;
    const max = p.maxPerCycle as number;
    const delay = p.delayMs as number;
    const dlx = `${q}.dlx`;
    const routerX = `${q}.router`;
    const delayQ = `${q}.delay`;
    const failed = `${q}.failed`;
    return {
      topology: {
        exchanges: [exchange(routerX), exchange(dlx, 'radlx')],
        queues: [
          queue(q, { 'x-dead-letter-exchange': dlx }),
          queue(delayQ, { 'x-message-ttl': delay, 'x-dead-letter-exchange': routerX }),
          queue(failed),
        ],
        bindings: [bind(routerX, q, q), bind(dlx, delayQ, '#'), bind(dlx, failed, '', deadBinding(q))],
      },
      consumers: [worker('worker', q, [{ then: { kind: 'reject' } }], 'worker')],
      publishers: [publisher(routerX, q, radlxHeaders(max, q))],
      explanation:
        `As in the plugin's second example: a rejection in ${q} goes to the radlx exchange ${dlx}. Below the limit it routes by topic ("#") to ${delayQ}, which holds it ${delay} ms ` +
        `and dead-letters it to ${routerX}, back to ${q}. On the ${ordinal(max)} rejection radlx adds radlx.dead.source=${q} and the headers binding sends it to ${failed}. ` +
        `${max} attempts, ${delay} ms apart. ${NOTE}`,
      columns: [[P('publisher')], [X(routerX)], [Q(q)], [C('worker'), X(dlx)], [Q(delayQ), Q(failed)]],
      loop: [Q(q), X(dlx), Q(delayQ), X(routerX)],
      workConsumers: ['worker'],
      documented: retryOutcomes(repeat(delay, max - 1), { kind: 'queue', queue: failed }),
    };
  },
});

/** failFirst k under radlx-cycles: death j (1-based) waits in the TTL DLQ when j % max == 0. */
function cyclesOutcome(max: number, ttl: number, k: number): DocumentedOutcome {
  const delays: number[] = [];
  for (let j = 1; j <= k; j++) delays.push(j % max === 0 ? ttl : 0);
  return { failure: { kind: 'failFirst', n: k }, attempts: k + 1, delaysMs: delays, endsIn: { kind: 'acked' } };
}

export const radlxCycles = defineTemplate({
  id: 'radlx-cycles',
  title: 'radlx: repeating cycles through a TTL DLQ',
  summary: 'the DLQ has a TTL back to the source, so each cycle gets max-per-cycle attempts again (count % max)',
  params: [prefixParam('orders'), maxPerCycleParam(2), delayParam('cycleDelayMs', 'DLQ TTL between cycles', 5000)],
  requires: ['radlx'],
  profile: '4.x',
  runsOnStock310: false,
  build: (p) => {
    const q = p.prefix as string;
    const max = p.maxPerCycle as number;
    const ttl = p.cycleDelayMs as number;
    const dlx = `${q}.dlx`;
    const routerX = `${q}.router`;
    const failed = `${q}.failed`;
    return {
      topology: {
        exchanges: [exchange(routerX), exchange(dlx, 'radlx')],
        queues: [
          queue(q, { 'x-dead-letter-exchange': dlx }),
          queue(failed, { 'x-message-ttl': ttl, 'x-dead-letter-exchange': routerX }),
        ],
        bindings: [bind(routerX, q, q), bind(dlx, q, q), bind(dlx, failed, '', deadBinding(q))],
      },
      consumers: [worker('worker', q, [{ then: { kind: 'reject' } }], 'worker')],
      publishers: [publisher(routerX, q, radlxHeaders(max, q))],
      explanation:
        `The plugin's third example. Rejections go to the radlx exchange ${dlx}: ${max - 1} of every ${max} go straight back to ${q} (topic), every ${ordinal(max)} goes to ${failed} (headers). ` +
        `${failed} itself has x-message-ttl=${ttl} and dead-letters to ${routerX}, so after ${ttl} ms the message starts a new cycle; because radlx tests count % ${max}, ` +
        `each cycle gets ${max} attempts again. Nothing ever gives up: a message that always fails cycles forever (${max} attempts every ${ttl} ms). ${NOTE}`,
      columns: [[P('publisher')], [X(routerX)], [Q(q)], [C('worker'), X(dlx)], [Q(failed)]],
      loop: [Q(q), X(dlx), Q(failed), X(routerX)],
      workConsumers: ['worker'],
      documented: [
        { failure: { kind: 'always' }, attempts: 'unbounded', delaysMs: [], endsIn: { kind: 'cycling' } },
        cyclesOutcome(max, ttl, max + 1),
      ],
    };
  },
});

export const radlxPriorityDlq = defineTemplate({
  id: 'radlx-priority-dlq',
  title: 'radlx: priority-based DLQ routing',
  summary: 'dead messages are matched with headers semantics on radlx.dead.source plus a business header (priority)',
  params: [
    prefixParam('orders'),
    maxPerCycleParam(1),
    {
      name: 'priority',
      label: 'priority header of the test message',
      type: 'enum',
      default: 'high',
      options: ['high', 'standard'],
    },
  ],
  requires: ['radlx'],
  profile: '4.x',
  runsOnStock310: false,
  build: (p) => {
    const q = p.prefix as string;
    const max = p.maxPerCycle as number;
    const prio = p.priority as string;
    const dlx = `${q}.dlx`;
    const [urgent, logger, standard] = ['dlq.urgent', 'dlq.logger', 'dlq.standard'].map((n) => `${q}.${n}`) as [
      string,
      string,
      string,
    ];
    return {
      topology: {
        exchanges: [exchange(dlx, 'radlx')],
        queues: [queue(q, { 'x-dead-letter-exchange': dlx }), queue(urgent), queue(logger), queue(standard)],
        bindings: [
          bind(dlx, q, q),
          bind(dlx, urgent, '', deadBinding(q, { priority: 'high' })),
          bind(dlx, logger, '', deadBinding(q, {}, 'any')),
          bind(dlx, standard, '', deadBinding(q, { priority: 'standard' })),
        ],
      },
      consumers: [worker('worker', q, [{ then: { kind: 'reject' } }], 'worker')],
      publishers: [publisher('', q, radlxHeaders(max, q, { priority: prio }))],
      explanation:
        `The plugin's priority example. Once a message has died ${max} time(s) in ${q}, radlx matches the dead-letter bindings with headers semantics on the message's headers plus radlx.dead.source=${q}: ` +
        `priority=high goes to ${urgent}, priority=standard to ${standard}, and ${logger} ("any" on radlx.dead.source) gets a copy of every dead message. ${NOTE}`,
      columns: [[P('publisher')], [Q(q)], [C('worker'), X(dlx)], [Q(urgent), Q(logger), Q(standard)]],
      workConsumers: ['worker'],
      documented: [
        {
          failure: { kind: 'always' },
          attempts: max,
          delaysMs: repeat(0, max - 1),
          endsIn: { kind: 'queue', queue: prio === 'high' ? urgent : standard, also: [logger] },
        },
      ],
    };
  },
});
