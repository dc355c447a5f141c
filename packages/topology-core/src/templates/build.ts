/** Small builders shared by the templates, so each template reads like its diagram. */
import type { AmqpTable, BindingDef, ExchangeDef, ExchangeType, QueueDef, Topology } from '../model/definitions.js';
import type { ConsumerSpec, Counter, ConsumerAction, Rule } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { Design } from '../model/design.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';
import { exchangeNodeId, queueNodeId, consumerNodeId, publisherNodeId, type NodeId } from '../model/nodeIds.js';
import { positionsFromHints } from './layout.js';
import { placeSettings } from './settingsPlacement.js';
import type { Ending } from '../sim/messageOutcome.js';
import type { BuiltTemplate, DocumentedOutcome, LayoutHints, ParamValues, RetryTemplate } from './types.js';

export const exchange = (name: string, type: ExchangeType = 'direct', args: AmqpTable = {}): ExchangeDef => ({
  name,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: args,
});
export const queue = (name: string, args: AmqpTable = {}): QueueDef => ({
  name,
  durable: true,
  auto_delete: false,
  arguments: args,
});
/**
 * The parking place: a classic queue, or with `parking=stream` a stream (durable, x-queue-type
 * stream). The templates park by republishing (a client publish), which a stream takes on every
 * version; a dead letter routed to a stream is dropped by RabbitMQ 3.10 (sim/profiles.ts).
 */
export const parkingQueue = (name: string, p: ParamValues): QueueDef =>
  queue(name, p.parking === 'stream' ? { 'x-queue-type': 'stream' } : {});

/** What parking in a stream changes, said in the explanation. */
export const STREAM_PARKING_NOTE =
  'The parking place is a stream: an append-only log. Parked messages are kept (until retention by x-max-age or x-max-length-bytes removes old segments), ' +
  'read by offset and replayable: a reader acks to move on, which removes nothing, so there is no per-message removal, ' +
  'and a stream cannot dead-letter or requeue. The parked copy keeps its x-first-death-* headers but not the x-death table (a stream keeps no ' +
  'client-set x-death; RabbitMQ 3.10 also drops array headers). Browsing it changes nothing; re-drive refuses a stream (nothing can be removed from it).';

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
export const publisher = (
  exchangeName: string,
  routingKey: string,
  headers?: AmqpTable,
  id = 'publisher',
): PublisherSpec => ({
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

/** A bounded retry: while `counter` is below `limit` the consumer does `retry`; after that it parks the message. */
export const retryThenPark = (counter: Counter, limit: number, retry: ConsumerAction, parking: string): Rule[] => [
  { when: { kind: 'lt', counter, value: limit }, then: retry },
  { then: park(parking) },
];

/**
 * The usual promise: a message that always fails is tried once per delay plus once more, `delaysMs` apart,
 * and ends in `endsIn`; one that fails only once (when there is a retry) is acked at the second attempt.
 */
export function retryOutcomes(delaysMs: readonly number[], endsIn: Ending): DocumentedOutcome[] {
  return [
    { failure: { kind: 'always' }, attempts: delaysMs.length + 1, delaysMs: [...delaysMs], endsIn },
    ...(delaysMs.length >= 1
      ? [
          {
            failure: { kind: 'failFirst' as const, n: 1 },
            attempts: 2,
            delaysMs: delaysMs.slice(0, 1),
            endsIn: { kind: 'acked' as const },
          },
        ]
      : []),
  ];
}

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

/** What a template's build says: its diagram and its story (the rest comes from the template itself). */
export interface TemplateBody {
  readonly topology: Topology;
  readonly consumers: readonly ConsumerSpec[];
  readonly publishers: readonly PublisherSpec[];
  readonly explanation: string;
  readonly columns: readonly (readonly NodeId[])[];
  readonly loop?: readonly NodeId[];
  readonly workConsumers: readonly string[];
  readonly documented: readonly DocumentedOutcome[];
}

export interface TemplateSpec extends Omit<RetryTemplate, 'build'> {
  readonly build: (p: ParamValues) => TemplateBody;
}

/** A template whose built design carries the template's id, title, parameters, requirements and profile, stated once. */
export function defineTemplate(spec: TemplateSpec): RetryTemplate {
  return { ...spec, build: (p) => finish(spec, p, spec.build(p)) };
}

function finish(t: TemplateSpec, params: ParamValues, a: TemplateBody): BuiltTemplate {
  const layout: LayoutHints = { columns: a.columns, ...(a.loop ? { loop: a.loop } : {}) };
  const design: Design = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: t.title,
    description: a.explanation,
    profile: t.profile,
    topology: params.settings === 'policy' ? placeSettings(a.topology, 'policy') : a.topology,
    consumers: a.consumers,
    publishers: a.publishers,
    layout: positionsFromHints(layout),
    origin: { template: t.id, params },
  };
  const explanation = [
    a.explanation,
    ...(params.settings === 'policy'
      ? [
          'The TTL and dead-letter settings are in policies (one per queue) rather than x- arguments, so they can change without redeclaring the queue.',
        ]
      : []),
    ...(params.parking === 'stream' ? [STREAM_PARKING_NOTE] : []),
  ].join(' ');
  return {
    id: t.id,
    params,
    design: { ...design, description: explanation },
    explanation,
    layout,
    requires: [...t.requires],
    profile: t.profile,
    workConsumers: a.workConsumers,
    documented: a.documented,
  };
}

export const repeat = <T>(v: T, n: number): T[] => Array.from({ length: n }, () => v);
