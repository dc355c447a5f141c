/**
 * Queue and exchange argument rules as RabbitMQ checks them (rabbit_amqqueue.erl
 * `check_*_arg`, rabbit_misc:check_expiry, docs/ttl.md, docs/quorum-queues). Each check
 * returns a message, or undefined when the value is fine.
 */
import type { AmqpValue } from './definitions.js';
import type { BrokerProfileId } from './design.js';

/** 2^32 - 1: the largest TTL / expiry / delay RabbitMQ accepts (MAX_EXPIRY_TIMER). */
export const MAX_TTL_MS = 4294967295;
/** Per-message `expiration` upper bound in rabbit_misc:check_expiry (ms). */
export const MAX_EXPIRATION_MS = 315360000000;

export type QueueType = 'classic' | 'quorum' | 'stream';
export const QUEUE_TYPES: readonly string[] = ['classic', 'quorum', 'stream'];
export const OVERFLOW_MODES = ['drop-head', 'reject-publish', 'reject-publish-dlx'] as const;
export const DEAD_LETTER_STRATEGIES = ['at-most-once', 'at-least-once'] as const;
export const X_MATCH_VALUES = ['all', 'any', 'all-with-x', 'any-with-x'] as const;
/** Exchange types an `x-delayed-type` may name. */
export const DELAYED_UNDERLYING_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;

type Check = (v: AmqpValue) => string | undefined;

function isInt(v: AmqpValue): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}
function describe(v: AmqpValue): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : String(v);
}

export function intRange(min: number, max: number): Check {
  return (v) => {
    if (!isInt(v)) return `must be an integer between ${min} and ${max}, got ${describe(v)}`;
    if (v < min || v > max) return `must be between ${min} and ${max}, got ${v}`;
    return undefined;
  };
}
export const checkTtl: Check = intRange(0, MAX_TTL_MS);
const nonNegInt: Check = (v) => (isInt(v) && v >= 0 ? undefined : `must be a non-negative integer, got ${describe(v)}`);
const isString: Check = (v) => (typeof v === 'string' ? undefined : `must be a string, got ${describe(v)}`);
const isBool: Check = (v) => (typeof v === 'boolean' ? undefined : `must be true or false, got ${describe(v)}`);
const anyValue: Check = () => undefined;

function oneOf(values: readonly string[]): Check {
  return (v) =>
    typeof v === 'string' && values.includes(v) ? undefined : `must be one of ${values.join(', ')}; got ${describe(v)}`;
}

export interface ArgSpec {
  readonly check: Check;
  /** the only queue type that accepts it */
  readonly only?: QueueType;
  /**
   * a stream accepts it too (a stream refuses every other argument with "invalid arg ... of
   * queue type rabbit_stream_queue": measured on 3.10.8 and 4.3.6, docs streams "Feature Comparison")
   */
  readonly stream?: true;
  /** RabbitMQ 4.x refuses the declaration outright (measured on 4.3.6: the channel is closed without a reply, no queue) */
  readonly refusedOn4?: true;
  readonly doc: string;
}

/**
 * `x-max-age`: a positive integer and one unit, Y M D h m s (docs streams "Data Retention";
 * the broker refuses anything else with invalid_max_age, and a number with unacceptable_type).
 */
export const MAX_AGE_PATTERN = /^[0-9]+[YMDhms]$/;
const checkMaxAge: Check = (v) =>
  typeof v === 'string' && MAX_AGE_PATTERN.test(v)
    ? undefined
    : `must be a string such as "7D", "12h" or "30m" (a number and one unit of Y, M, D, h, m, s), got ${describe(v)}`;

export const QUEUE_ARGUMENTS: { readonly [key: string]: ArgSpec } = {
  'x-queue-type': { check: oneOf(QUEUE_TYPES), stream: true, doc: 'classic, quorum or stream' },
  'x-message-ttl': { check: checkTtl, doc: 'queue TTL in ms, integer 0..2^32-1' },
  'x-expires': { check: intRange(1, MAX_TTL_MS), doc: 'delete the unused queue after ms, integer >= 1' },
  'x-max-length': { check: nonNegInt, doc: 'max ready messages' },
  'x-max-length-bytes': {
    check: nonNegInt,
    stream: true,
    doc: 'max ready bytes (a stream: retention by size, whole segments)',
  },
  'x-overflow': { check: oneOf(OVERFLOW_MODES), doc: 'drop-head, reject-publish or reject-publish-dlx' },
  'x-dead-letter-exchange': { check: isString, doc: 'dead-letter exchange name' },
  'x-dead-letter-routing-key': { check: isString, doc: 'replaces the routing key when dead-lettering' },
  'x-single-active-consumer': { check: isBool, doc: 'one active consumer' },
  'x-max-priority': { check: intRange(0, 255), only: 'classic', doc: 'priority levels (1-255; keep it small)' },
  'x-queue-mode': { check: oneOf(['default', 'lazy']), only: 'classic', doc: 'lazy classic queue' },
  'x-queue-version': { check: intRange(1, 2), only: 'classic', doc: 'classic queue storage version' },
  'x-queue-master-locator': {
    check: isString,
    only: 'classic',
    refusedOn4: true,
    doc: 'mirrored classic queue leader placement',
  },
  'x-queue-leader-locator': { check: oneOf(['client-local', 'balanced']), stream: true, doc: 'leader placement' },
  'x-delivery-limit': {
    check: intRange(-1, 2147483647),
    only: 'quorum',
    doc: 'returns before dead-lettering (-1 = unlimited, 4.x)',
  },
  'x-dead-letter-strategy': {
    check: oneOf(DEAD_LETTER_STRATEGIES),
    only: 'quorum',
    doc: 'at-most-once or at-least-once',
  },
  'x-quorum-initial-group-size': { check: intRange(1, 255), only: 'quorum', doc: 'replicas' },
  'x-quorum-target-group-size': { check: intRange(1, 255), only: 'quorum', doc: 'target replicas' },
  'x-max-in-memory-length': { check: nonNegInt, only: 'quorum', doc: 'in-memory limit (3.x)' },
  'x-max-in-memory-bytes': { check: nonNegInt, only: 'quorum', doc: 'in-memory limit (3.x)' },
  // streams (docs streams "Declaring", "Data Retention"): append-only, read by offset
  'x-max-age': { check: checkMaxAge, only: 'stream', doc: 'retention by age: "7D", "12h" (whole segments)' },
  'x-stream-max-segment-size-bytes': {
    check: intRange(1, 3000000000),
    only: 'stream',
    doc: 'segment file size (retention removes whole segments)',
  },
  'x-initial-cluster-size': { check: intRange(1, 255), only: 'stream', doc: 'replicas at declaration' },
  'x-stream-filter-size-bytes': {
    check: intRange(16, 255),
    only: 'stream',
    doc: 'Bloom filter size (3.12+ stream filtering)',
  },
  // RabbitMQ 4.3 native delayed retry (quorum queues)
  // a quorum queue takes any value (4.3.6, measured): what it does with a bad one is said by
  // validateTopology from model/delayedRetry.ts (a policy's values are refused: validatePolicies)
  'x-delayed-retry-type': {
    check: anyValue,
    only: 'quorum',
    doc: '4.3 delayed retry: all, failed, returned or disabled',
  },
  'x-delayed-retry-min': {
    check: anyValue,
    only: 'quorum',
    doc: '4.3 delayed retry: min delay ms (a positive integer)',
  },
  'x-delayed-retry-max': {
    check: anyValue,
    only: 'quorum',
    doc: '4.3 delayed retry: max delay ms (a positive integer; absent: the min)',
  },
};

export const EXCHANGE_ARGUMENTS: { readonly [key: string]: ArgSpec } = {
  'alternate-exchange': { check: isString, doc: 'exchange that takes unroutable messages' },
  'x-delayed-type': { check: oneOf(DELAYED_UNDERLYING_TYPES), doc: 'routing type of an x-delayed-message exchange' },
};

/** `expiration` property: a decimal string of ms (rabbit_channel check_expiration_header). */
export function checkExpirationString(v: unknown): string | undefined {
  if (typeof v !== 'string')
    return `must be a decimal string of milliseconds such as "5000", got ${typeof v === 'number' ? `the number ${v}` : typeof v}`;
  if (!/^[0-9]+$/.test(v)) return `must be a decimal string of milliseconds, got ${JSON.stringify(v)}`;
  const n = Number(v);
  if (n > MAX_EXPIRATION_MS) return `must be at most ${MAX_EXPIRATION_MS} ms, got ${v}`;
  return undefined;
}

/** `x-delay` for the delayed-message exchange: delayed only when 0 < d <= 2^32-1. */
export function checkDelay(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v))
    return `x-delay must be an integer number of ms, got ${JSON.stringify(v)}`;
  if (v < 0) return `x-delay ${v} is negative: the plugin routes the message at once`;
  if (v > MAX_TTL_MS) return `x-delay ${v} exceeds 2^32-1 ms: the plugin routes the message at once`;
  return undefined;
}

export function queueTypeOf(args: { readonly [k: string]: AmqpValue } | undefined): QueueType {
  const t = args?.['x-queue-type'];
  return t === 'quorum' ? 'quorum' : t === 'stream' ? 'stream' : 'classic';
}

/** The arguments of a queue that the broker line refuses to declare at all (the queue never exists there). */
export function refusedQueueArguments(
  args: { readonly [k: string]: AmqpValue } | undefined,
  profile: BrokerProfileId,
): string[] {
  if (profile === '3.10') return [];
  return Object.keys(args ?? {}).filter((k) => QUEUE_ARGUMENTS[k]?.refusedOn4 === true);
}

/** Whether a queue of this type accepts the argument (the broker refuses it otherwise). */
export function argumentAllowed(spec: ArgSpec, type: QueueType): boolean {
  if (type === 'stream') return spec.only === 'stream' || spec.stream === true;
  return spec.only === undefined || spec.only === type;
}

/** Why a stream refuses an argument, for the validation message (docs streams "Feature Comparison"). */
export function whyStreamRefuses(key: string): string {
  if (key.startsWith('x-dead-letter'))
    return 'a stream never dead-letters: nothing is rejected, expired or dropped from it';
  if (key === 'x-message-ttl' || key === 'x-expires')
    return 'a stream keeps messages until retention (x-max-age, x-max-length-bytes) removes old segments';
  if (key === 'x-max-length' || key === 'x-overflow')
    return 'a stream is bounded by retention (x-max-length-bytes, x-max-age), not by a message count';
  if (key === 'x-delivery-limit') return 'a stream is read by offset: there are no returns to count';
  if (key === 'x-single-active-consumer') return 'single active consumer on a stream needs the stream protocol';
  return 'the broker refuses it for streams';
}
