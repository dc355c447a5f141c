/**
 * The Spring Cloud Stream RabbitMQ binder (application.yml / .properties): per consumer binding
 * `spring.cloud.stream.bindings.<b>.{destination,group,consumer.*}` (the binder-neutral retry:
 * max-attempts, back-off-*) and `spring.cloud.stream.rabbit.bindings.<b>.consumer.*` (the
 * RabbitMQ side: auto-bind-dlq, republish-to-dlq, dlq-ttl, ...), with `...default.consumer.*`
 * under both. What the binder declares (docs: rabbitmq-consumer-properties): a topic exchange
 * `<prefix><destination>`, the queue `<prefix><destination>.<group>` bound with `#`, and with
 * auto-bind-dlq the direct exchange `<prefix>DLX` and the queue `<queue>.dlq` bound to it by
 * `<destination>.<group>`. The retry runs in the listener thread (a RetryTemplate); when it is
 * exhausted the binder republishes to the DLQ with x-exception-* headers (republish-to-dlq) or
 * rejects (requeue-rejected decides whether to requeue).
 */
import type { AmqpTable, BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { readConfigText, type ConfigEntry, type ConfigView } from './configText.js';
import { DEFAULTS } from './defaults.js';
import { bool, SourceBuilder } from './sourceBuilder.js';
import { AppConfigFailure, type AppFile, type AppReading, type ReadOptions } from './types.js';

const CORE = 'spring.cloud.stream.bindings.';
const RABBIT = 'spring.cloud.stream.rabbit.bindings.';
const CORE_DEFAULT = 'spring.cloud.stream.default.';
const RABBIT_DEFAULT = 'spring.cloud.stream.rabbit.default.';
const D = DEFAULTS.springCloudStream;

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

export function readSpringCloudStream(file: AppFile, opts: ReadOptions = {}): AppReading {
  const view = readConfigText(file.name, file.text, opts.springProfiles);
  const names = bindingNames(view);
  const consumers = names.filter((b) => isConsumerBinding(view, b));
  if (consumers.length === 0)
    throw new AppConfigFailure({
      file: file.name,
      message:
        'no Spring Cloud Stream consumer binding (spring.cloud.stream.bindings.<name>.destination with a group, or consumer settings)',
    });
  const exchanges = new Map<string, ExchangeDef>();
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  const specs: ConsumerSpec[] = [];
  const publishers: PublisherSpec[] = [];
  const sources: Record<string, NodeSource> = {};
  const notes: { line: number; text: string }[] = view.inactiveProfiles.map((p) => ({
    line: p.line,
    text: `the document for profile "${p.profile}" is not active (activate it with --spring-profile)`,
  }));

  for (const b of consumers) {
    const src = new SourceBuilder('spring-cloud-stream', file.name);
    const core = (k: string): ConfigEntry | undefined =>
      view.get(`${CORE}${b}.consumer.${k}`) ?? view.get(`${CORE_DEFAULT}consumer.${k}`);
    const rabbit = (k: string): ConfigEntry | undefined =>
      view.get(`${RABBIT}${b}.consumer.${k}`) ?? view.get(`${RABBIT_DEFAULT}consumer.${k}`);
    const keyOf = (e: ConfigEntry | undefined, fallback: string): string => e?.key ?? fallback;
    const num = (e: ConfigEntry | undefined, key: string, d: { value: string; cite: string }): number => {
      const v = src.value(keyOf(e, key), e, d);
      const n = Number(v);
      if (!Number.isFinite(n))
        throw new AppConfigFailure({
          file: file.name,
          ...(e ? { line: e.line } : {}),
          message: `${key} must be a number, got "${v}"`,
        });
      return n;
    };
    const flag = (e: ConfigEntry | undefined, key: string, d: { value: string; cite: string }): boolean =>
      bool(src.value(keyOf(e, key), e, d)) === true;
    const destE = view.get(`${CORE}${b}.destination`);
    const destination = (destE?.value ?? b).split(',')[0]!.trim();
    if (destE) src.read(destE.key, destE.value, destE.line);
    if (destE && destE.value.includes(','))
      notes.push({ line: destE.line, text: `${b}: only the first destination of "${destE.value}" is read` });
    const groupE = view.get(`${CORE}${b}.group`) ?? view.get(`${CORE_DEFAULT}group`);
    if (groupE) src.read(groupE.key, groupE.value, groupE.line);
    const prefix = rabbit('prefix')?.value ?? '';
    const xName = `${prefix}${destination}`;
    const xType = (rabbit('exchange-type')?.value ?? D.exchangeType.value) as ExchangeDef['type'];
    if (!exchanges.has(xName))
      exchanges.set(xName, {
        name: xName,
        type: xType,
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      });
    const group = groupE?.value.trim();
    const qBase = group ? `${destination}.${group}` : `${destination}.anonymous`;
    // a partitioned consumer's queue is suffixed with its instance index and bound by `<destination>-<index>`
    const partitionedE = core('partitioned');
    const partitioned = partitionedE !== undefined && bool(partitionedE.value) === true;
    const indexE = view.get(`${CORE}${b}.consumer.instance-index`) ?? view.get('spring.cloud.stream.instance-index');
    const index = partitioned ? Number(indexE?.value ?? '0') : undefined;
    if (partitioned) src.read(partitionedE!.key, partitionedE!.value, partitionedE!.line);
    if (indexE && partitioned) src.read(indexE.key, indexE.value, indexE.line);
    const qName = `${prefix}${qBase}${index !== undefined ? `-${index}` : ''}`;
    const anchor =
      destE ??
      groupE ??
      view.entries.find((e) => e.key.startsWith(`${CORE}${b}.`) || e.key.startsWith(`${RABBIT}${b}.`))!;

    const maxAttempts = Math.max(
      1,
      Math.trunc(num(core('max-attempts'), `${CORE}${b}.consumer.max-attempts`, D.maxAttempts)),
    );
    const initialMs = num(
      core('back-off-initial-interval'),
      `${CORE}${b}.consumer.back-off-initial-interval`,
      D.backOffInitialInterval,
    );
    const maxMs = num(
      core('back-off-max-interval'),
      `${CORE}${b}.consumer.back-off-max-interval`,
      D.backOffMaxInterval,
    );
    const multiplier = num(
      core('back-off-multiplier'),
      `${CORE}${b}.consumer.back-off-multiplier`,
      D.backOffMultiplier,
    );
    const concurrency = Math.max(
      1,
      Math.trunc(num(core('concurrency'), `${CORE}${b}.consumer.concurrency`, D.concurrency)),
    );
    const autoBindDlq =
      group !== undefined && flag(rabbit('auto-bind-dlq'), `${RABBIT}${b}.consumer.auto-bind-dlq`, D.autoBindDlq);
    const republishToDlq =
      autoBindDlq && flag(rabbit('republish-to-dlq'), `${RABBIT}${b}.consumer.republish-to-dlq`, D.republishToDlq);
    const requeueRejected = flag(
      rabbit('requeue-rejected'),
      `${RABBIT}${b}.consumer.requeue-rejected`,
      D.requeueRejected,
    );
    const prefetch = Math.min(
      65535,
      Math.max(0, Math.trunc(num(rabbit('prefetch'), `${RABBIT}${b}.consumer.prefetch`, D.prefetch))),
    );

    const qArgs: Record<string, AmqpTable[string]> = {};
    const readArg = (k: string, arg: string, as: 'number' | 'string' = 'number'): void => {
      const e = rabbit(k);
      if (!e) return;
      src.read(e.key, e.value, e.line);
      qArgs[arg] = as === 'number' ? Number(e.value) : e.value;
    };
    readArg('ttl', 'x-message-ttl');
    readArg('max-length', 'x-max-length');
    if (bool(rabbit('quorum.enabled')?.value ?? '') === true) {
      const e = rabbit('quorum.enabled')!;
      src.read(e.key, e.value, e.line);
      qArgs['x-queue-type'] = 'quorum';
      readArg('quorum.delivery-limit', 'x-delivery-limit');
    }
    const dlx = rabbit('dead-letter-exchange')?.value ?? `${prefix}${D.deadLetterExchange.value}`;
    const dlqName = rabbit('dead-letter-queue-name')?.value ?? `${qName}.dlq`;
    const dlRoutingKey = rabbit('dead-letter-routing-key')?.value ?? qBase;
    if (autoBindDlq) {
      src.value(`${RABBIT}${b}.consumer.dead-letter-exchange`, rabbit('dead-letter-exchange'), {
        value: dlx,
        cite: D.deadLetterExchange.cite,
      });
      qArgs['x-dead-letter-exchange'] = dlx;
      qArgs['x-dead-letter-routing-key'] = dlRoutingKey;
      if (!exchanges.has(dlx))
        exchanges.set(dlx, {
          name: dlx,
          type: 'direct',
          durable: true,
          auto_delete: false,
          internal: false,
          arguments: {},
        });
      const dlqArgs: Record<string, AmqpTable[string]> = {};
      const ttl = rabbit('dlq-ttl');
      if (ttl) dlqArgs['x-message-ttl'] = Number(src.read(ttl.key, ttl.value, ttl.line));
      const back = rabbit('dlq-dead-letter-exchange');
      if (back) dlqArgs['x-dead-letter-exchange'] = src.read(back.key, back.value, back.line);
      const backKey = rabbit('dlq-dead-letter-routing-key');
      if (backKey) dlqArgs['x-dead-letter-routing-key'] = src.read(backKey.key, backKey.value, backKey.line);
      if (bool(rabbit('dlq-quorum.enabled')?.value ?? '') === true) {
        dlqArgs['x-queue-type'] = 'quorum';
        const lim = rabbit('dlq-quorum.delivery-limit');
        if (lim) dlqArgs['x-delivery-limit'] = Number(src.read(lim.key, lim.value, lim.line));
      }
      const dlqLen = rabbit('dlq-max-length');
      if (dlqLen) dlqArgs['x-max-length'] = Number(src.read(dlqLen.key, dlqLen.value, dlqLen.line));
      queues.push({ name: dlqName, durable: true, auto_delete: false, arguments: dlqArgs });
      bindings.push({
        source: dlx,
        destination: dlqName,
        destination_type: 'queue',
        routing_key: dlRoutingKey,
        arguments: {},
      });
      sources[queueNodeId(dlqName)] = {
        framework: 'spring-cloud-stream',
        file: file.name,
        line: (rabbit('auto-bind-dlq') ?? anchor).line,
      };
    }
    queues.push({ name: qName, durable: group !== undefined, auto_delete: group === undefined, arguments: qArgs });
    bindings.push({
      source: xName,
      destination: qName,
      destination_type: 'queue',
      routing_key:
        rabbit('binding-routing-key')?.value ??
        (index !== undefined ? `${destination}-${index}` : D.bindingRoutingKey.value),
      arguments: {},
    });
    // the binder's error handler once the RetryTemplate gives up
    const recover: ConsumerAction = republishToDlq
      ? { kind: 'republish', exchange: dlx, routingKey: dlRoutingKey, exceptionHeaders: true }
      : requeueRejected
        ? { kind: 'requeue' }
        : { kind: 'reject' };
    const id = `${b}`;
    specs.push({
      id,
      queue: qName,
      label: `binding ${b}`,
      prefetch,
      behaviour: {
        kind: 'worker',
        onFailure: [
          {
            then: {
              kind: 'retryInProcess',
              maxAttempts,
              backoff: { initialMs, multiplier: Math.max(1, multiplier), maxMs: Math.max(initialMs, maxMs) },
              recover,
            },
          },
        ],
      },
    });
    const s = src.build(anchor.line, { concurrency });
    sources[consumerNodeId(id)] = s;
    sources[queueNodeId(qName)] = { framework: 'spring-cloud-stream', file: file.name, line: anchor.line };
    sources[exchangeNodeId(xName)] = { framework: 'spring-cloud-stream', file: file.name, line: anchor.line };
  }
  for (const b of names.filter((n) => !consumers.includes(n))) {
    const destE = view.get(`${CORE}${b}.destination`);
    if (!destE) continue;
    const prefix = view.get(`${RABBIT}${b}.producer.prefix`)?.value ?? '';
    const x = `${prefix}${destE.value.trim()}`;
    if (!exchanges.has(x))
      exchanges.set(x, { name: x, type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} });
    publishers.push({ id: b, exchange: x, routingKey: destE.value.trim(), bodyPrefix: b });
  }
  // a message for every consumer's exchange (the producer lives in another application)
  for (const c of specs) {
    const bd = bindings.find((y) => y.destination === c.queue)!;
    const x = bd.source;
    if (!publishers.some((p) => p.exchange === x))
      publishers.push({
        id: `publish-${x}`,
        exchange: x,
        routingKey: /[#*]/.test(bd.routing_key) ? x : bd.routing_key,
        bodyPrefix: x,
      });
  }
  return {
    framework: 'spring-cloud-stream',
    exchanges: [...exchanges.values()],
    queues,
    bindings,
    consumers: specs,
    publishers,
    sources,
    notes,
  };
}
