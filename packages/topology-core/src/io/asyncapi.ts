/**
 * Design -> an AsyncAPI 3.0 document: one channel per exchange (AMQP binding `is: routingKey`)
 * and per queue (`is: queue`), AMQP bindings version 0.3.0; a send operation per publisher and
 * per consumer republish target, a receive operation per consumer. The AMQP bindings have no
 * field for queue or exchange arguments, so dead-letter, TTL and other arguments are kept as
 * `x-` extensions on the channel, the bindings into an exchange or queue as its `x-bindings`,
 * and policies as the document's `x-policies`.
 */
import type { AmqpTable, AmqpValue, ExchangeDef, PolicyDef, QueueDef } from '../model/definitions.js';
import type { Design } from '../model/design.js';
import { republishSlotSuffix, republishSlotWhat, republishTargets } from './republishTargets.js';
import { UniqueNames } from './uniqueNames.js';

export const ASYNCAPI_VERSION = '3.0.0';
export const AMQP_BINDING_VERSION = '0.3.0';

export interface AsyncApiOptions {
  readonly vhost?: string;
}

type Json = AmqpValue;
type JsonObject = { [k: string]: Json };

/** The routing types the AMQP binding knows; plugin types route like their underlying type. */
const AMQP_EXCHANGE_TYPES = ['topic', 'direct', 'fanout', 'headers'] as const;
function bindingExchangeType(x: ExchangeDef): string {
  if ((AMQP_EXCHANGE_TYPES as readonly string[]).includes(x.type)) return x.type;
  const under = x.arguments?.['x-delayed-type'];
  if (
    x.type === 'x-delayed-message' &&
    typeof under === 'string' &&
    (AMQP_EXCHANGE_TYPES as readonly string[]).includes(under)
  )
    return under;
  // radlx routes dead-lettered messages by headers (x-match on radlx.* headers)
  return x.type === 'radlx' ? 'headers' : 'direct';
}

const EXTENSION_KEY = /^x-[\w.-]+$/;
/** Extension names this export uses itself on a channel. */
const RESERVED_EXTENSIONS = new Set(['x-bindings', 'x-other-arguments']);
/**
 * `x-` arguments (x-dead-letter-exchange, x-message-ttl, ...) as extensions of the same name;
 * any other (`alternate-exchange`, or a key no extension name can carry) in `x-other-arguments`,
 * so that the arguments can be read back exactly.
 */
function argumentExtensions(a: AmqpTable | undefined): JsonObject {
  const out: JsonObject = {};
  const other: JsonObject = {};
  for (const [k, v] of Object.entries(a ?? {})) {
    if (EXTENSION_KEY.test(k) && !RESERVED_EXTENSIONS.has(k)) out[k] = v;
    else other[k] = v;
  }
  return Object.keys(other).length > 0 ? { ...out, 'x-other-arguments': other } : out;
}

const channelId = (s: string): string => s.replace(/[^A-Za-z0-9_-]+/g, '_') || '_';

/** A queue's channel: the AMQP queue binding, its arguments as x- extensions, the bindings into it. */
function queueChannelBody(q: QueueDef, vhost: string, message: JsonObject, into: Json[]): JsonObject {
  return {
    address: q.name,
    title: `queue ${q.name}`,
    messages: { message },
    bindings: {
      amqp: {
        is: 'queue',
        queue: {
          name: q.name,
          durable: q.durable ?? true,
          exclusive: false,
          autoDelete: q.auto_delete ?? false,
          vhost,
        },
        bindingVersion: AMQP_BINDING_VERSION,
      },
    },
    ...argumentExtensions(q.arguments),
    ...(into.length > 0 ? { 'x-bindings': into } : {}),
  };
}

/** Policies have no AsyncAPI home: kept whole, as in definitions JSON, under x-policies. */
function policiesExtension(policies: readonly PolicyDef[]): JsonObject {
  if (policies.length === 0) return {};
  return {
    'x-policies': policies.map((p) => ({
      name: p.name,
      pattern: p.pattern,
      'apply-to': p['apply-to'] ?? 'all',
      priority: p.priority ?? 0,
      definition: { ...p.definition },
    })),
  };
}

export function exportAsyncApi(d: Design, opts: AsyncApiOptions = {}): JsonObject {
  const t = d.topology;
  const vhost = opts.vhost ?? '/';
  const ids = new UniqueNames(channelId, 200);
  const exchangeChannel = new Map<string, string>();
  const queueChannel = new Map<string, string>();
  for (const x of t.exchanges) exchangeChannel.set(x.name, ids.take(`exchange-${x.name}`));
  for (const q of t.queues) queueChannel.set(q.name, ids.take(`queue-${q.name}`));
  const message = { $ref: '#/components/messages/message' };
  const bindingsInto = (kind: 'queue' | 'exchange', name: string): Json[] =>
    t.bindings
      .filter((b) => b.destination_type === kind && b.destination === name)
      .map((b) => ({
        exchange: b.source,
        routingKey: b.routing_key,
        ...(b.arguments && Object.keys(b.arguments).length > 0 ? { arguments: { ...b.arguments } } : {}),
      }));

  const channels: JsonObject = {};
  for (const x of t.exchanges) {
    const type = bindingExchangeType(x);
    const into = bindingsInto('exchange', x.name);
    channels[exchangeChannel.get(x.name)!] = {
      address: x.name,
      title: `exchange ${x.name}`,
      messages: { message },
      bindings: {
        amqp: {
          is: 'routingKey',
          exchange: { name: x.name, type, durable: x.durable ?? true, autoDelete: x.auto_delete ?? false, vhost },
          ...(type !== x.type ? { 'x-exchange-type': x.type } : {}),
          ...(x.internal ? { 'x-internal': true } : {}),
          bindingVersion: AMQP_BINDING_VERSION,
        },
      },
      ...argumentExtensions(x.arguments),
      ...(into.length > 0 ? { 'x-bindings': into } : {}),
    };
  }
  for (const q of t.queues) {
    channels[queueChannel.get(q.name)!] = queueChannelBody(q, vhost, message, bindingsInto('queue', q.name));
  }

  /** The channel a publish goes to: the exchange's, or with the default exchange the queue named by the key. */
  const publishChannel = (exchange: string, routingKey: string | undefined): string | undefined =>
    exchange === ''
      ? routingKey !== undefined
        ? queueChannel.get(routingKey)
        : undefined
      : exchangeChannel.get(exchange);
  const opIds = new UniqueNames(channelId, 200);
  const operations: JsonObject = {};
  const send = (
    id: string,
    summary: string,
    exchange: string,
    routingKey: string | undefined,
    extra: JsonObject,
  ): void => {
    const ch = publishChannel(exchange, routingKey);
    if (ch === undefined) return;
    operations[opIds.take(id)] = {
      action: 'send',
      summary,
      channel: { $ref: `#/channels/${ch}` },
      bindings: {
        amqp: {
          ...(routingKey !== undefined && exchange !== '' ? { cc: [routingKey] } : {}),
          deliveryMode: 2,
          ...extra,
          bindingVersion: AMQP_BINDING_VERSION,
        },
      },
    };
  };
  for (const p of d.publishers) {
    const exp = p.properties?.expiration;
    send(
      `${p.id}-publish`,
      `${p.label ?? p.id} publishes to ${p.exchange === '' ? 'the default exchange' : p.exchange}`,
      p.exchange,
      p.routingKey,
      {
        ...(exp !== undefined && /^\d+$/.test(exp) ? { expiration: Number(exp) } : {}),
        ...(p.properties?.priority !== undefined ? { priority: p.properties.priority } : {}),
        ...(p.mandatory !== undefined ? { mandatory: p.mandatory } : {}),
      },
    );
  }
  for (const c of d.consumers) {
    const ch = queueChannel.get(c.queue);
    if (ch !== undefined)
      operations[opIds.take(`${c.id}-consume`)] = {
        action: 'receive',
        summary: `${c.label ?? c.id} consumes ${c.queue}`,
        channel: { $ref: `#/channels/${ch}` },
        bindings: { amqp: { ack: true, bindingVersion: AMQP_BINDING_VERSION } },
        'x-prefetch': c.prefetch ?? 1,
      };
    for (const r of republishTargets(c))
      send(
        `${c.id}-republish-${republishSlotSuffix(r.slot)}`,
        `${c.label ?? c.id} republishes ${republishSlotWhat(r.slot)}`,
        r.exchange,
        r.routingKey,
        {},
      );
  }

  return {
    asyncapi: ASYNCAPI_VERSION,
    info: {
      title: d.name || 'retry topology',
      version: '1.0.0',
      description: `${d.description ? `${d.description}\n\n` : ''}Generated by Retry Studio. Queue and exchange arguments (dead-lettering, TTLs, delivery limits) are the channels' x- extensions.`,
    },
    defaultContentType: 'text/plain',
    channels,
    operations,
    components: {
      messages: { message: { name: 'message', title: 'A message of this topology', payload: { type: 'string' } } },
    },
    ...policiesExtension(t.policies ?? []),
  };
}

export function exportAsyncApiJson(d: Design, opts: AsyncApiOptions = {}): string {
  return JSON.stringify(exportAsyncApi(d, opts), null, 2) + '\n';
}
