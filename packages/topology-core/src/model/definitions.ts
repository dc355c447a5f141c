/**
 * The topology in RabbitMQ's own definitions shape (`rabbitmqctl export_definitions`),
 * so that import/export and the conformance scenarios need no translation.
 * Names are identities: an exchange is its name, a queue is its name (within one vhost).
 */

/** A value of an AMQP table as it appears in JSON: arguments and headers. */
export type AmqpValue = string | number | boolean | null | AmqpValue[] | { readonly [key: string]: AmqpValue };

export type AmqpTable = { readonly [key: string]: AmqpValue };

export const BUILTIN_EXCHANGE_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;
export const PLUGIN_EXCHANGE_TYPES = ['x-delayed-message', 'radlx'] as const;
export type BuiltinExchangeType = (typeof BUILTIN_EXCHANGE_TYPES)[number];
export type PluginExchangeType = (typeof PLUGIN_EXCHANGE_TYPES)[number];
export type ExchangeType = BuiltinExchangeType | PluginExchangeType;

export interface ExchangeDef {
  readonly name: string;
  readonly type: ExchangeType;
  readonly durable?: boolean;
  readonly auto_delete?: boolean;
  readonly internal?: boolean;
  /** `alternate-exchange`, `x-delayed-type`, ... */
  readonly arguments?: AmqpTable;
}

export interface QueueDef {
  readonly name: string;
  readonly durable?: boolean;
  readonly auto_delete?: boolean;
  /** `x-queue-type`, `x-message-ttl`, `x-dead-letter-exchange`, ... */
  readonly arguments?: AmqpTable;
}

export interface BindingDef {
  readonly source: string;
  readonly destination: string;
  readonly destination_type: 'queue' | 'exchange';
  readonly routing_key: string;
  /** header-exchange match arguments (`x-match`, ...) */
  readonly arguments?: AmqpTable;
}

/** What a policy applies to (RabbitMQ's `apply-to` values; default `all`). */
export type PolicyApplyTo = 'all' | 'queues' | 'classic_queues' | 'quorum_queues' | 'streams' | 'exchanges';

/** Optional policies (the subset that matters for retries), as in definitions JSON. */
export interface PolicyDef {
  readonly name: string;
  readonly pattern: string;
  readonly 'apply-to'?: PolicyApplyTo;
  readonly priority?: number;
  readonly definition: AmqpTable;
}

export interface Topology {
  readonly exchanges: readonly ExchangeDef[];
  readonly queues: readonly QueueDef[];
  readonly bindings: readonly BindingDef[];
  readonly policies?: readonly PolicyDef[];
  /**
   * Queue name -> the policy the broker reports it applies (a live vhost's import): where
   * equal priorities leave RabbitMQ's choice unspecified, the broker's own choice is the truth.
   * Read by the effective settings (model/policyMatch.ts); never exported.
   */
  readonly policyPins?: Readonly<Record<string, string>>;
}

/** The default exchange: always exists, routes by queue name, cannot be declared or bound. */
export const DEFAULT_EXCHANGE = '';

/**
 * The exchanges every vhost has from its creation (rabbit_vhost `declare_default_exchanges`):
 * a design may bind from them or dead-letter to them, never declare them.
 */
export const BUILTIN_EXCHANGES: { readonly [name: string]: BuiltinExchangeType } = {
  'amq.direct': 'direct',
  'amq.fanout': 'fanout',
  'amq.topic': 'topic',
  'amq.headers': 'headers',
  'amq.match': 'headers',
  'amq.rabbitmq.trace': 'topic',
};

/** The type of a built-in `amq.*` exchange, or undefined for any other name. */
export function builtinExchangeType(name: string): BuiltinExchangeType | undefined {
  return Object.prototype.hasOwnProperty.call(BUILTIN_EXCHANGES, name) ? BUILTIN_EXCHANGES[name] : undefined;
}
