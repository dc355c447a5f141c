/**
 * Fixture builders for simulator tests: `T.queue('q', { dlx: 'x' })` instead of copied JSON.
 */
import type {
  AmqpTable,
  AmqpValue,
  BindingDef,
  ExchangeDef,
  ExchangeType,
  PolicyDef,
  QueueDef,
  Topology,
} from '../src/model/definitions.js';
import type { ConsumerAction, ConsumerSpec, FailureModel, Rule, StreamOffset } from '../src/model/consumer.js';
import type { PublishProperties } from '../src/model/publisher.js';
import type { SimEvent, SimEventKind, SimEventOf } from '../src/sim/events.js';
import type { SimStep, SimulationInput, SimulationResult } from '../src/sim/types.js';
import { simulate } from '../src/sim/simulate.js';
import { observe } from '../src/scenario/observe.js';
import type { Observed } from '../src/scenario/types.js';

export interface QueueOpts {
  readonly dlx?: string;
  readonly dlrk?: string;
  readonly ttl?: number;
  readonly maxLength?: number;
  readonly maxBytes?: number;
  readonly overflow?: 'drop-head' | 'reject-publish' | 'reject-publish-dlx';
  readonly quorum?: boolean;
  /** x-queue-type stream */
  readonly stream?: boolean;
  readonly deliveryLimit?: number;
  readonly args?: AmqpTable;
}

export interface ExchangeOpts {
  readonly ae?: string;
  readonly delayedType?: string;
  readonly args?: AmqpTable;
}

type Part = QueueDef | ExchangeDef | BindingDef | PolicyDef;
const isBinding = (p: Part): p is BindingDef => 'destination' in p;
const isPolicy = (p: Part): p is PolicyDef => 'pattern' in p;
const isExchange = (p: Part): p is ExchangeDef => 'type' in p && !('destination' in p);

export const T = {
  queue(name: string, o: QueueOpts = {}): QueueDef {
    const a: { [k: string]: AmqpValue } = { ...(o.args ?? {}) };
    if (o.quorum) a['x-queue-type'] = 'quorum';
    if (o.stream) a['x-queue-type'] = 'stream';
    if (o.dlx !== undefined) a['x-dead-letter-exchange'] = o.dlx;
    if (o.dlrk !== undefined) a['x-dead-letter-routing-key'] = o.dlrk;
    if (o.ttl !== undefined) a['x-message-ttl'] = o.ttl;
    if (o.maxLength !== undefined) a['x-max-length'] = o.maxLength;
    if (o.maxBytes !== undefined) a['x-max-length-bytes'] = o.maxBytes;
    if (o.overflow !== undefined) a['x-overflow'] = o.overflow;
    if (o.deliveryLimit !== undefined) a['x-delivery-limit'] = o.deliveryLimit;
    return { name, durable: true, auto_delete: false, arguments: a };
  },
  exchange(name: string, type: ExchangeType = 'direct', o: ExchangeOpts = {}): ExchangeDef {
    const a: { [k: string]: AmqpValue } = { ...(o.args ?? {}) };
    if (o.ae !== undefined) a['alternate-exchange'] = o.ae;
    if (o.delayedType !== undefined) a['x-delayed-type'] = o.delayedType;
    return { name, type, durable: true, auto_delete: false, arguments: a };
  },
  bind(source: string, destination: string, routingKey = '', args?: AmqpTable): BindingDef {
    return { source, destination, destination_type: 'queue', routing_key: routingKey, arguments: args ?? {} };
  },
  bindX(source: string, destination: string, routingKey = '', args?: AmqpTable): BindingDef {
    return { source, destination, destination_type: 'exchange', routing_key: routingKey, arguments: args ?? {} };
  },
  policy(name: string, pattern: string, definition: AmqpTable, priority = 0): PolicyDef {
    return { name, pattern, 'apply-to': 'queues', priority, definition };
  },
  topology(...parts: Part[]): Topology {
    return {
      exchanges: parts.filter(isExchange),
      queues: parts.filter((p): p is QueueDef => !isBinding(p) && !isPolicy(p) && !isExchange(p)),
      bindings: parts.filter(isBinding),
      policies: parts.filter(isPolicy),
    };
  },
};

let cid = 0;
export const C = {
  /** scenario-style: the i-th delivery of a body gets actions[i], the last repeating */
  script(queue: string, ...actions: ConsumerAction[]): ConsumerSpec {
    return { id: `${queue}#${cid++}`, queue, behaviour: { kind: 'script', actions } };
  },
  worker(
    queue: string,
    onFailure: Rule[],
    o: { failure?: FailureModel; processingMs?: number; prefetch?: number; onSuccess?: ConsumerAction } = {},
  ): ConsumerSpec {
    return {
      id: `${queue}#${cid++}`,
      queue,
      ...(o.prefetch !== undefined ? { prefetch: o.prefetch } : {}),
      behaviour: {
        kind: 'worker',
        onFailure,
        ...(o.failure ? { failure: o.failure } : {}),
        ...(o.processingMs !== undefined ? { processingMs: o.processingMs } : {}),
        ...(o.onSuccess ? { onSuccess: o.onSuccess } : {}),
      },
    };
  },
  withPrefetch(c: ConsumerSpec, prefetch: number): ConsumerSpec {
    return { ...c, prefetch };
  },
  /** a stream reader starting at `offset` */
  fromOffset(c: ConsumerSpec, offset: StreamOffset): ConsumerSpec {
    return { ...c, streamOffset: offset };
  },
};

export const A = {
  ack: { kind: 'ack' } as const,
  reject: { kind: 'reject' } as const,
  requeue: { kind: 'requeue' } as const,
  republish(
    exchange: string,
    o: Omit<Extract<ConsumerAction, { kind: 'republish' }>, 'kind' | 'exchange'> = {},
  ): ConsumerAction {
    return { kind: 'republish', exchange, ...o };
  },
};

export const S = {
  publish(
    exchange: string,
    routingKey: string,
    body: string,
    o: { headers?: AmqpTable; expiration?: string; mandatory?: boolean } = {},
  ): SimStep {
    const properties: PublishProperties = {
      ...(o.headers ? { headers: o.headers } : {}),
      ...(o.expiration !== undefined ? { expiration: o.expiration } : {}),
    };
    return {
      kind: 'publish',
      exchange,
      routingKey,
      body,
      msgId: body,
      properties,
      ...(o.mandatory !== undefined ? { mandatory: o.mandatory } : {}),
    };
  },
  wait(ms: number): SimStep {
    return { kind: 'wait', ms };
  },
};

export interface Run extends SimulationResult {
  readonly observed: Observed;
  of<K extends SimEventKind>(kind: K): SimEventOf<K>[];
  /** bodies delivered on a queue, in order */
  delivered(queue: string): string[];
  /** bodies left in a queue, head first */
  left(queue: string): string[];
}

export function run(input: Partial<SimulationInput> & Pick<SimulationInput, 'topology'>): Run {
  const r = simulate({ consumers: [], steps: [], ...input });
  const observed = observe(r);
  return {
    ...r,
    observed,
    of: <K extends SimEventKind>(kind: K) => r.events.filter((e: SimEvent): e is SimEventOf<K> => e.kind === kind),
    delivered: (q: string) => r.events.filter((e) => e.kind === 'delivered' && e.queue === q).map((e) => e.body),
    left: (q: string) => (r.final[q] ?? []).map((m) => m.body),
  };
}
