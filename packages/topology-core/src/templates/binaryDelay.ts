/**
 * Plugin-free arbitrary delays (the NServiceBus / kombu design): level i is a topic exchange
 * and a queue with TTL 2^i units. The delay, in units, is written in binary in the routing key
 * (`b(L-1)....b0.destination`); level i keeps the message for 2^i units when its bit is 1 and
 * passes it on otherwise, and the last hop routes it by destination.
 */
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { Rule } from '../model/consumer.js';
import type { NodeId } from '../model/nodeIds.js';
import { settingsParam } from './settingsPlacement.js';
import {
  bind,
  bindExchange,
  parkingQueue,
  defineTemplate,
  exchange,
  header,
  park,
  publisher,
  queue,
  retryOutcomes,
  worker,
  X,
  Q,
  C,
  P,
} from './build.js';
import { delaysParam, parkingParam, prefixParam } from './commonParams.js';
import { MAX_TTL_MS } from '../model/arguments.js';
import { binaryDelayRoutingKey } from '../routing/binaryDelayKey.js';

export { binaryDelayRoutingKey };

export const binaryDelayLevels = defineTemplate({
  id: 'binary-delay-levels',
  title: 'Binary delay levels (NServiceBus design)',
  summary:
    'plugin-free arbitrary delays through levels of TTL queues; the delay is written in binary in the routing key',
  params: [
    prefixParam('orders'),
    {
      name: 'levels',
      label: 'Levels',
      type: 'integer',
      default: 6,
      min: 1,
      max: 28,
      unit: 'count',
      help: 'maximum delay is (2^levels - 1) units',
    },
    { name: 'unitMs', label: 'Unit (level 0 TTL)', type: 'integer', default: 1000, min: 1, max: 3600000, unit: 'ms' },
    delaysParam([1000, 5000, 30000]),
    settingsParam,
    parkingParam,
  ],
  requires: [],
  profile: '3.10',
  runsOnStock310: true,
  build: (p) => {
    const pre = p.prefix as string;
    const levels = p.levels as number;
    const unit = p.unitMs as number;
    const delays = p.delaysMs as readonly number[];
    if (unit * 2 ** (levels - 1) > MAX_TTL_MS)
      throw new TemplateParamError(
        'levels',
        `level ${levels - 1} would need a TTL above 2^32-1 ms; use fewer levels or a smaller unit`,
      );
    delays.forEach((d) => {
      if (d % unit !== 0)
        throw new TemplateParamError('delaysMs', `${d} ms is not a multiple of the unit (${unit} ms)`);
      if (d / unit > 2 ** levels - 1)
        throw new TemplateParamError(
          'delaysMs',
          `${d} ms exceeds the largest delay of ${levels} levels, ${(2 ** levels - 1) * unit} ms`,
        );
    });
    const q = `${pre}.q`;
    const parking = `${pre}.parking`;
    const lx = (i: number): string => `${pre}.delay.${String(i).padStart(2, '0')}`;
    const deliver = `${pre}.delay.deliver`;
    const exchanges: ExchangeDef[] = [exchange(pre)];
    const queues: QueueDef[] = [queue(q), parkingQueue(parking, p)];
    const bindings: BindingDef[] = [bind(pre, q, 'task')];
    for (let i = levels - 1; i >= 0; i--) {
      const next = i === 0 ? deliver : lx(i - 1);
      exchanges.push(exchange(lx(i), 'topic'));
      queues.push(queue(lx(i), { 'x-message-ttl': unit * 2 ** i, 'x-dead-letter-exchange': next }));
      const skip = '*.'.repeat(levels - 1 - i);
      bindings.push(bind(lx(i), lx(i), `${skip}1.#`));
      bindings.push(bindExchange(lx(i), next, `${skip}0.#`));
    }
    exchanges.push(exchange(deliver, 'topic'));
    bindings.push(bind(deliver, q, `#.${q}`));
    const rules: Rule[] = delays.map((d, r) => ({
      when: { kind: 'lt', counter: header('x-retries'), value: r + 1 },
      then: {
        kind: 'republish',
        exchange: lx(levels - 1),
        routingKey: binaryDelayRoutingKey(d / unit, levels, q),
        copyHeaders: false,
        headers: { 'x-retries': r + 1 },
      },
    }));
    rules.push({ then: park(parking) });
    const columns: NodeId[][] = [[P('publisher')], [X(pre)], [Q(q)], [C('worker'), Q(parking)]];
    for (let i = levels - 1; i >= 0; i--) columns.push([X(lx(i)), Q(lx(i))]);
    columns.push([X(deliver)]);
    return {
      topology: { exchanges, queues, bindings },
      consumers: [worker('worker', q, rules, 'worker')],
      publishers: [publisher(pre, 'task')],
      explanation:
        `${levels} levels of a topic exchange and a queue: level i holds a message for 2^i x ${unit} ms. To wait d units the worker publishes to the top level with the bits of d in the routing key ` +
        `(e.g. ${binaryDelayRoutingKey(delays[0]! / unit, levels, q)}); each level whose bit is 1 keeps it for its TTL and dead-letters it to the next level, each 0 bit passes it on through an exchange-to-exchange binding, ` +
        `and ${deliver} routes it by the last word to ${q}. Any delay up to ${(2 ** levels - 1) * unit} ms works with ${2 * levels + 1} fixed objects and no plugin; every queue has a single TTL, so nothing blocks behind a longer delay. ` +
        `The worker republishes without the old headers (x-death stripped): a copy that revisits a level with its x-death intact would be dropped as a dead-letter cycle. ` +
        `Retries wait ${delays.join(', ')} ms, then the message is parked in ${parking}. Each wait costs one dead-lettering per 1 bit.`,
      columns,
      workConsumers: ['worker'],
      documented: retryOutcomes(delays, { kind: 'queue', queue: parking }),
    };
  },
});

/** A parameter combination a single-parameter check cannot see (names the parameter). */
export class TemplateParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}
