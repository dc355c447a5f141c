/** Small builders shared by the templates, so each template reads like its diagram. */
import type { AmqpTable, BindingDef, ExchangeDef, ExchangeType, QueueDef, Topology } from '../model/definitions.js';
import type { ConsumerSpec, Counter, ConsumerAction, Rule } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { BrokerProfileId, Design } from '../model/design.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';
import { exchangeNodeId, queueNodeId, consumerNodeId, publisherNodeId, type NodeId } from '../model/nodeIds.js';
import { positionsFromHints } from './layout.js';
import type { BuiltTemplate, DocumentedOutcome, LayoutHints, ParamValues } from './types.js';

export const exchange = (name: string, type: ExchangeType = 'direct', args: AmqpTable = {}): ExchangeDef => ({
  name,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: args,
});
export const queue = (name: string, args: AmqpTable = {}): QueueDef => ({ name, durable: true, auto_delete: false, arguments: args });
export const bind = (source: string, destination: string, routingKey = '', args: AmqpTable = {}): BindingDef => ({
  source,
  destination,
  destination_type: 'queue',
  routing_key: routingKey,
  arguments: args,
});
export const bindExchange = (source: string, destination: string, routingKey = ''): BindingDef => ({
  source,
  destination,
  destination_type: 'exchange',
  routing_key: routingKey,
  arguments: {},
});

export const worker = (id: string, q: string, onFailure: readonly Rule[], label?: string): ConsumerSpec => ({
  id,
  queue: q,
  ...(label ? { label } : {}),
  prefetch: 1,
  behaviour: { kind: 'worker', onFailure },
});
export const router = (id: string, q: string, rules: readonly Rule[], label?: string): ConsumerSpec => ({
  id,
  queue: q,
  ...(label ? { label } : {}),
  prefetch: 1,
  behaviour: { kind: 'router', rules },
});
export const publisher = (exchangeName: string, routingKey: string, headers?: AmqpTable, id = 'publisher'): PublisherSpec => ({
  id,
  label: 'test publisher',
  exchange: exchangeName,
  routingKey,
  bodyPrefix: 'msg',
  ...(headers ? { properties: { headers } } : {}),
});

export const attempt: Counter = { kind: 'attempt' };
export const header = (name: string): Counter => ({ kind: 'header', name });
export const rejectedIn = (q: string): Counter => ({ kind: 'deathCount', queue: q, reason: 'rejected' });
export const park = (parking: string): ConsumerAction => ({ kind: 'republish', exchange: '', routingKey: parking });

/** min(max, initial * multiplier^(n-1)) for n = 1..count */
export function backoffSchedule(initial: number, multiplier: number, max: number, count: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= count; n++) out.push(Math.min(max, Math.round(initial * Math.pow(multiplier, n - 1))));
  return out;
}

export const X = exchangeNodeId;
export const Q = queueNodeId;
export const C = consumerNodeId;
export const P = publisherNodeId;

export interface FinishArgs {
  readonly id: string;
  readonly title: string;
  readonly params: ParamValues;
  readonly topology: Topology;
  readonly consumers: readonly ConsumerSpec[];
  readonly publishers: readonly PublisherSpec[];
  readonly explanation: string;
  readonly columns: readonly (readonly NodeId[])[];
  readonly loop?: readonly NodeId[];
  readonly requires?: readonly string[];
  readonly profile?: BrokerProfileId;
  readonly workConsumers: readonly string[];
  readonly documented: readonly DocumentedOutcome[];
}

export function finish(a: FinishArgs): BuiltTemplate {
  const layout: LayoutHints = { columns: a.columns, ...(a.loop ? { loop: a.loop } : {}) };
  const profile = a.profile ?? '3.10';
  const design: Design = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: a.title,
    description: a.explanation,
    profile,
    topology: a.topology,
    consumers: a.consumers,
    publishers: a.publishers,
    layout: positionsFromHints(layout),
    origin: { template: a.id, params: a.params },
  };
  return {
    id: a.id,
    params: a.params,
    design,
    explanation: a.explanation,
    layout,
    requires: a.requires ?? [],
    profile,
    workConsumers: a.workConsumers,
    documented: a.documented,
  };
}

export const repeat = <T,>(v: T, n: number): T[] => Array.from({ length: n }, () => v);
