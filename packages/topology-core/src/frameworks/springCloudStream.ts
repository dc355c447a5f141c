/**
 * The Spring Cloud Stream RabbitMQ binder (application.yml / .properties, profiles, the
 * environment): per consumer binding `spring.cloud.stream.bindings.<b>.{destination,group,consumer.*}`
 * (the binder-neutral retry: max-attempts, back-off-*) and `spring.cloud.stream.rabbit.bindings.<b>.consumer.*`
 * (the RabbitMQ side: auto-bind-dlq, republish-to-dlq, dlq-ttl, ...), with `...default.consumer.*`
 * under both. What the binder declares (docs: rabbitmq-consumer-properties): a topic exchange
 * `<prefix><destination>`, the queue `<prefix><destination>.<group>` bound with `#` (or
 * binding-routing-key), and with auto-bind-dlq the direct exchange `<prefix>DLX` and the queue
 * `<queue>.dlq` bound to it by `<destination>.<group>`. The retry runs in the listener thread (a
 * RetryTemplate); when it is exhausted the binder republishes to the DLQ with x-exception-*
 * headers (republish-to-dlq, when the DLX exists; else it acks and the message is gone) or rejects
 * (requeue-rejected decides whether to requeue a single attempt).
 */
import type { AmqpValue, BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { inactiveProfileNotes, type ConfigEntry, type ConfigView } from './read/configText.js';
import { keyNote, suggestKey } from './read/keyTable.js';
import { readSettings, row } from './read/settingsTable.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import { SCS_BINDING_KEYS, SCS_DEFAULT_KEYS, SCS_RABBIT_KEYS } from './read/scsKeys.js';
import { publishersReaching } from './read/publishersReaching.js';
import { binderRecovery, traps } from './read/scsBinderRules.js';
import type { AppFrameworkDef, AppInput, AppReading, ReadingNote } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

const CORE = 'spring.cloud.stream.bindings.';
const RABBIT = 'spring.cloud.stream.rabbit.bindings.';
const CORE_DEFAULT = 'spring.cloud.stream.default.';
const RABBIT_DEFAULT = 'spring.cloud.stream.rabbit.default.';
const SCS_CORE =
  'https://docs.spring.io/spring-cloud-stream/reference/spring-cloud-stream/binding-properties.html#consumer-properties';
const SCS_RABBIT =
  'https://docs.spring.io/spring-cloud-stream/reference/rabbit/rabbit_overview/rabbitmq-consumer-properties.html';

const D = {
  maxAttempts: { value: '3', cite: SCS_CORE },
  backOffInitialInterval: { value: '1000', cite: SCS_CORE },
  backOffMaxInterval: { value: '10000', cite: SCS_CORE },
  backOffMultiplier: { value: '2.0', cite: SCS_CORE },
  autoBindDlq: { value: 'false', cite: SCS_RABBIT },
  republishToDlq: { value: 'true', cite: SCS_RABBIT },
  requeueRejected: { value: 'false', cite: SCS_RABBIT },
  deadLetterExchange: { value: 'DLX', cite: SCS_RABBIT },
  exchangeType: { value: 'topic', cite: SCS_RABBIT },
  bindingRoutingKey: { value: '#', cite: SCS_RABBIT },
  prefetch: { value: '1', cite: SCS_RABBIT },
  concurrency: { value: '1', cite: SCS_CORE },
  /**
   * AnonymousQueue's constructor: setLeaderLocator("client-local"), whose key is x-queue-master-locator
   * up to Spring AMQP 3.2.10 and 4.0.3 (Spring Boot up to 3.5.14 and 4.0.6), x-queue-leader-locator after
   */
  anonymousLocator: {
    value: 'client-local',
    cite: 'https://github.com/spring-projects/spring-amqp/blob/v3.2.8/spring-amqp/src/main/java/org/springframework/amqp/core/AnonymousQueue.java',
  },
} as const;

/** Binding names named by the file's keys. */
function bindingNames(view: ConfigView): string[] {
  const names = new Set<string>();
  for (const e of view.entries)
    for (const p of [CORE, RABBIT]) if (e.key.startsWith(p)) names.add(e.key.slice(p.length).split('.')[0]!);
  return [...names];
}

export const hasStreamBindings = (v: ConfigView): boolean =>
  v.entries.some((e) => e.key.startsWith(CORE) || e.key.startsWith(RABBIT));

/** A consumer binding: named like one (`x-in-0`, `input`), with a group, or with consumer settings. */
function isConsumerBinding(view: ConfigView, b: string): boolean {
  if (/-out-\d+$/.test(b) || b === 'output') return false;
  if (/-in-\d+$/.test(b) || b === 'input') return true;
  return view.entries.some(
    (e) =>
      e.key === `${CORE}${b}.group` ||
      e.key.startsWith(`${CORE}${b}.consumer.`) ||
      e.key.startsWith(`${RABBIT}${b}.consumer.`),
  );
}

interface Retry {
  maxAttempts: number;
  initialMs: number;
  maxMs: number;
  multiplier: number;
  concurrency: number;
}

const RETRY_ROWS = [
  row<Retry, 'int'>({
    key: 'max-attempts',
    type: 'int',
    default: D.maxAttempts,
    apply: (s, v) => (s.maxAttempts = Math.max(1, v)),
  }),
  row<Retry, 'int'>({
    key: 'back-off-initial-interval',
    type: 'int',
    default: D.backOffInitialInterval,
    apply: (s, v) => (s.initialMs = v),
  }),
  row<Retry, 'int'>({
    key: 'back-off-max-interval',
    type: 'int',
    default: D.backOffMaxInterval,
    apply: (s, v) => (s.maxMs = v),
  }),
  row<Retry, 'number'>({
    key: 'back-off-multiplier',
    type: 'number',
    default: D.backOffMultiplier,
    apply: (s, v) => (s.multiplier = v),
  }),
  row<Retry, 'int'>({
    key: 'concurrency',
    type: 'int',
    default: D.concurrency,
    apply: (s, v) => (s.concurrency = Math.max(1, v)),
  }),
];

interface Rabbit {
  requeueRejected: boolean;
  prefetch: number;
  args: Record<string, AmqpValue>;
}

/** the group queue's own settings: how it ends a failure, its prefetch, its arguments */
const RABBIT_ROWS = [
  row<Rabbit, 'boolean'>({
    key: 'requeue-rejected',
    type: 'boolean',
    default: D.requeueRejected,
    apply: (s, v) => (s.requeueRejected = v),
  }),
  row<Rabbit, 'int'>({
    key: 'prefetch',
    type: 'int',
    default: D.prefetch,
    apply: (s, v) => (s.prefetch = Math.min(65535, Math.max(0, v))),
  }),
  ...queueArgRows<Rabbit>('', (s) => s.args),
];

/** Rows that become queue arguments, under `prefix` (`` for the group queue, `dlq-` for its DLQ). */
function queueArgRows<S>(prefix: string, args: (s: S) => Record<string, AmqpValue>) {
  const num = (key: string, arg: string) =>
    row<S, 'int'>({ key: `${prefix}${key}`, type: 'int', apply: (s, v) => (args(s)[arg] = v) });
  return [
    num('ttl', 'x-message-ttl'),
    num('max-length', 'x-max-length'),
    num('max-length-bytes', 'x-max-length-bytes'),
    num('expires', 'x-expires'),
    num('max-priority', 'x-max-priority'),
    row<S, 'string'>({
      key: `${prefix}overflow-behavior`,
      type: 'string',
      apply: (s, v) => (args(s)['x-overflow'] = v),
    }),
    row<S, 'boolean'>({
      key: `${prefix}quorum.enabled`,
      type: 'boolean',
      apply: (s, v) => void (v ? (args(s)['x-queue-type'] = 'quorum') : undefined),
    }),
    num('quorum.delivery-limit', 'x-delivery-limit'),
    row<S, 'boolean'>({
      key: `${prefix}single-active-consumer`,
      type: 'boolean',
      apply: (s, v) => void (v ? (args(s)['x-single-active-consumer'] = true) : undefined),
    }),
  ];
}

interface Dlq {
  args: Record<string, AmqpValue>;
}

const DLQ_ROWS = [
  ...queueArgRows<Dlq>('dlq-', (s) => s.args),
  row<Dlq, 'string'>({
    key: 'dlq-dead-letter-exchange',
    type: 'string',
    apply: (s, v) => (s.args['x-dead-letter-exchange'] = v),
  }),
  row<Dlq, 'string'>({
    key: 'dlq-dead-letter-routing-key',
    type: 'string',
    apply: (s, v) => (s.args['x-dead-letter-routing-key'] = v),
  }),
];

/** Keys of this binding's settings that the binder never reads, named with their line. */
function unknownKeys(view: ConfigView, b: string, src: SourceBuilder): void {
  for (const e of view.entries) {
    const check = (prefix: string, table: typeof SCS_RABBIT_KEYS): void => {
      if (!e.key.startsWith(prefix)) return;
      const rel = e.key.slice(prefix.length);
      const n = keyNote(table, rel, e.key, e.line, e.file);
      // a binder-neutral key written under the RabbitMQ binder's (max-attempts): say where it belongs
      const core =
        table === SCS_RABBIT_KEYS && n && !n.text.includes('did you mean')
          ? suggestKey(SCS_DEFAULT_KEYS, rel)
          : undefined;
      if (n && core)
        src.addNote({
          ...n,
          text: `${e.key} is unknown to the RabbitMQ binder: it never reads it, so the default applies (did you mean ${CORE}${b}.consumer.${core}? it is a binding key, not a binder one)`,
          fix: `Write ${CORE}${b}.consumer.${core}.`,
        });
      else if (n) src.addNote(n);
    };
    check(`${CORE}${b}.`, SCS_BINDING_KEYS);
    check(`${RABBIT}${b}.consumer.`, SCS_RABBIT_KEYS);
    check(`${CORE_DEFAULT}consumer.`, SCS_DEFAULT_KEYS);
    check(`${RABBIT_DEFAULT}consumer.`, SCS_RABBIT_KEYS);
  }
}

interface Topo {
  readonly exchanges: Map<string, ExchangeDef>;
  readonly queues: QueueDef[];
  readonly bindings: BindingDef[];
  readonly sources: Record<string, NodeSource>;
}

const exchange = (name: string, type: ExchangeDef['type']): ExchangeDef => ({
  name,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});

/** One consumer binding: its settings read, the objects the binder declares for it, its consumer. */
function readBinding(input: AppInput, view: ConfigView, b: string, topo: Topo, notes: ReadingNote[]): ConsumerSpec {
  const file = input.file.name;
  const src = new SourceBuilder('spring-cloud-stream', file);
  const core = (k: string): ConfigEntry | undefined =>
    view.get(`${CORE}${b}.consumer.${k}`) ?? view.get(`${CORE_DEFAULT}consumer.${k}`);
  const rabbit = (k: string): ConfigEntry | undefined =>
    view.get(`${RABBIT}${b}.consumer.${k}`) ?? view.get(`${RABBIT_DEFAULT}consumer.${k}`);
  const destE = view.get(`${CORE}${b}.destination`);
  const destination = (destE?.value ?? b).split(',')[0]!.trim();
  if (destE) src.readValue(destE.key, destE);
  if (destE && destE.value.includes(','))
    notes.push({
      line: destE.line,
      file: destE.file,
      text: `${b}: only the first destination of "${destE.value}" is read`,
    });
  const groupE = view.get(`${CORE}${b}.group`) ?? view.get(`${CORE_DEFAULT}group`);
  if (groupE) src.readValue(groupE.key, groupE);
  const prefixE = rabbit('prefix');
  const prefix = prefixE ? src.readValue(prefixE.key, prefixE) : '';
  const group = groupE?.value.trim();
  const qBase = group ? `${destination}.${group}` : `${destination}.anonymous`;
  // a partitioned consumer's queue is suffixed with its instance index and bound by `<destination>-<index>`
  const partitionedE = core('partitioned');
  const partitioned = partitionedE !== undefined && /^true$/i.test(partitionedE.value.trim());
  const indexE = view.get(`${CORE}${b}.consumer.instance-index`) ?? view.get('spring.cloud.stream.instance-index');
  const index = partitioned ? Number(indexE?.value ?? '0') : undefined;
  if (partitioned) src.readValue(partitionedE.key, partitionedE);
  if (indexE && partitioned) src.readValue(indexE.key, indexE);
  const qName = `${prefix}${qBase}${index !== undefined ? `-${index}` : ''}`;
  const anchor =
    destE ??
    groupE ??
    view.entries.find((e) => e.key.startsWith(`${CORE}${b}.`) || e.key.startsWith(`${RABBIT}${b}.`))!;

  const retry = readSettings<Retry>(
    RETRY_ROWS,
    { maxAttempts: 3, initialMs: 1000, maxMs: 10000, multiplier: 2, concurrency: 1 },
    src,
    core,
    (k) => `${CORE}${b}.consumer.${k}`,
  );
  const rkey = (k: string) => `${RABBIT}${b}.consumer.${k}`;
  const flag = (k: string, d: { value: string; cite: string }): boolean =>
    /^true$/i.test(src.value(rabbit(k)?.key ?? rkey(k), rabbit(k), d).trim());
  const autoBindDlq = group !== undefined && flag('auto-bind-dlq', D.autoBindDlq);
  const republishToDlq = flag('republish-to-dlq', D.republishToDlq);
  const q = readSettings<Rabbit>(RABBIT_ROWS, { requeueRejected: false, prefetch: 1, args: {} }, src, rabbit, rkey);
  const xName = `${prefix}${destination}`;
  const xType = (rabbit('exchange-type')?.value ?? D.exchangeType.value) as ExchangeDef['type'];
  if (!topo.exchanges.has(xName)) topo.exchanges.set(xName, exchange(xName, xType));

  const dlx = rabbit('dead-letter-exchange')?.value ?? `${prefix}${D.deadLetterExchange.value}`;
  const dlqName = rabbit('dead-letter-queue-name')?.value ?? `${qName}.dlq`;
  const dlRoutingKey = rabbit('dead-letter-routing-key')?.value ?? qBase;
  if (autoBindDlq) {
    src.value(rkey('dead-letter-exchange'), rabbit('dead-letter-exchange'), {
      value: dlx,
      cite: D.deadLetterExchange.cite,
    });
    q.args['x-dead-letter-exchange'] = dlx;
    q.args['x-dead-letter-routing-key'] = dlRoutingKey;
    if (!topo.exchanges.has(dlx)) topo.exchanges.set(dlx, exchange(dlx, 'direct'));
    const dlq = readSettings<Dlq>(DLQ_ROWS, { args: {} }, src, rabbit, rkey);
    topo.queues.push({ name: dlqName, durable: true, auto_delete: false, arguments: dlq.args });
    topo.bindings.push({
      source: dlx,
      destination: dlqName,
      destination_type: 'queue',
      routing_key: dlRoutingKey,
      arguments: {},
    });
    topo.sources[queueNodeId(dlqName)] = {
      framework: 'spring-cloud-stream',
      file,
      line: (rabbit('auto-bind-dlq') ?? anchor).line,
    };
  }
  // an anonymous group's queue is Spring AMQP's AnonymousQueue, which adds its leader locator
  if (group === undefined && q.args['x-queue-master-locator'] === undefined)
    q.args['x-queue-master-locator'] = src.defaulted('x-queue-master-locator', D.anonymousLocator);
  traps(src, rabbit, qName, autoBindDlq ? dlqName : undefined);
  unknownKeys(view, b, src);
  topo.queues.push({ name: qName, durable: group !== undefined, auto_delete: group === undefined, arguments: q.args });
  for (const key of bindingKeys(rabbit, index !== undefined ? `${destination}-${index}` : undefined))
    topo.bindings.push({
      source: xName,
      destination: qName,
      destination_type: 'queue',
      routing_key: key,
      arguments: {},
    });
  const recover = binderRecovery({
    republishToDlq,
    dlxPresent: autoBindDlq || topo.exchanges.has(dlx),
    dlx,
    dlRoutingKey,
    maxAttempts: retry.maxAttempts,
    requeueRejected: q.requeueRejected,
  });
  const s = src.build(anchor.line, { concurrency: retry.concurrency }, anchor.file);
  topo.sources[consumerNodeId(b)] = s;
  topo.sources[queueNodeId(qName)] = { framework: 'spring-cloud-stream', file: anchor.file, line: anchor.line };
  topo.sources[exchangeNodeId(xName)] = { framework: 'spring-cloud-stream', file: anchor.file, line: anchor.line };
  return {
    id: b,
    queue: qName,
    label: `binding ${b}`,
    prefetch: q.prefetch,
    behaviour: {
      kind: 'worker',
      onFailure: [
        {
          then: {
            kind: 'retryInProcess',
            maxAttempts: retry.maxAttempts,
            backoff: {
              initialMs: retry.initialMs,
              multiplier: Math.max(1, retry.multiplier),
              maxMs: Math.max(retry.initialMs, retry.maxMs),
            },
            recover,
          },
        },
      ],
    },
  };
}

/** The binding keys of the group queue: binding-routing-key split by its delimiter (binder 3.0+), `#` by default. */
function bindingKeys(rabbit: (k: string) => ConfigEntry | undefined, partitionKey: string | undefined): string[] {
  const e = rabbit('binding-routing-key');
  if (!e) return [partitionKey ?? D.bindingRoutingKey.value];
  const delim = rabbit('binding-routing-key-delimiter')?.value;
  return delim
    ? e.value
        .split(delim)
        .map((k) => k.trim())
        .filter((k) => k !== '')
    : [e.value];
}

function readSpringCloudStream(input: AppInput): AppReading {
  const view = input.config();
  const names = bindingNames(view);
  const consumerNames = names.filter((b) => isConsumerBinding(view, b));
  if (consumerNames.length === 0)
    throw new AppConfigFailure({
      file: input.file.name,
      message:
        'no Spring Cloud Stream consumer binding (spring.cloud.stream.bindings.<name>.destination with a group, or consumer settings)',
    });
  const topo: Topo = { exchanges: new Map(), queues: [], bindings: [], sources: {} };
  const notes: ReadingNote[] = inactiveProfileNotes(view);
  const consumers = consumerNames.map((b) => readBinding(input, view, b, topo, notes));
  const publishers: PublisherSpec[] = [];
  for (const b of names.filter((n) => !consumerNames.includes(n))) {
    const destE = view.get(`${CORE}${b}.destination`);
    if (!destE) continue;
    const prefix = view.get(`${RABBIT}${b}.producer.prefix`)?.value ?? '';
    const x = `${prefix}${destE.value.trim()}`;
    if (!topo.exchanges.has(x)) topo.exchanges.set(x, exchange(x, 'topic'));
    // routing-key-expression: a SpEL literal ('one.two') is the key; the binder's default is the destination
    const expr = view.get(`${RABBIT}${b}.producer.routing-key-expression`)?.value;
    const literal = expr !== undefined ? /^'([^']*)'$/.exec(expr.trim())?.[1] : undefined;
    publishers.push({ id: b, exchange: x, routingKey: literal ?? destE.value.trim(), bodyPrefix: b });
  }
  // a message for every consumer binding's patterns (the producer lives in another application)
  publishers.push(...publishersReaching(consumers, [...topo.exchanges.values()], topo.bindings, publishers));
  return {
    framework: 'spring-cloud-stream',
    exchanges: [...topo.exchanges.values()],
    queues: topo.queues,
    bindings: topo.bindings,
    consumers,
    publishers,
    sources: topo.sources,
    notes,
  };
}

export const springCloudStream: AppFrameworkDef = {
  id: 'spring-cloud-stream',
  ...FRAMEWORK_TRAITS['spring-cloud-stream'],
  fileKinds: ['config'],
  looksFor: 'spring.cloud.stream bindings',
  detect: (input) => hasStreamBindings(input.config()),
  read: readSpringCloudStream,
  defaults: D,
  keys: SCS_RABBIT_KEYS,
};
