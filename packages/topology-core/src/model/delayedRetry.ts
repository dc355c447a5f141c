/**
 * Quorum delayed retry (RabbitMQ 4.3: `x-delayed-retry-type|min|max` queue arguments, policy keys
 * `delayed-retry-type|min|max`) as RabbitMQ 4.3.6 reads it. Measured here, and re-measured by
 * apps/server/src/broker/delayedRetry.integration.test.ts:
 * - A policy is validated: the broker refuses it (HTTP 400 "Validation failed", and a definitions
 *   import that holds it fails whole) when the type is not one of all, failed, returned, disabled
 *   (case-sensitive), when min or max is not a positive integer (0, -1, 1.5, "100"), when the type
 *   is all/failed/returned without a min, or when max is smaller than min (with or without a type).
 *   A min or max without a type is accepted.
 * - Queue arguments are never refused on a quorum queue: what the policy validator refuses is
 *   accepted, and the queue runs with delayed retry disabled (a bad type, a missing or bad min), or
 *   with max = min (a missing or bad max: every delay is min). Max smaller than min is kept: every
 *   delay is then max (delay = min(min x delivery-count, max)).
 */
import type { AmqpValue } from './definitions.js';

export const DELAYED_RETRY_TYPES = ['all', 'failed', 'returned', 'disabled'] as const;
export type DelayedRetryType = Exclude<(typeof DELAYED_RETRY_TYPES)[number], 'disabled'>;

/** The three settings, as written (argument or policy values). */
export interface DelayedRetryValues {
  readonly type?: AmqpValue;
  readonly min?: AmqpValue;
  readonly max?: AmqpValue;
}

/** The delayed retry a queue runs with. */
export interface DelayedRetry {
  /** all: every return; failed: only returns that incremented delivery-count (basic.reject); returned: only those that did not (basic.nack) */
  readonly type: DelayedRetryType;
  readonly minMs: number;
  readonly maxMs: number;
}

/** How the broker prints a value in its validation message (Erlang terms: a binary as <<"x">>). */
function erl(v: AmqpValue): string {
  if (typeof v === 'string') return `<<"${v}">>`;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const positiveInt = (v: AmqpValue | undefined): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const validType = (v: AmqpValue | undefined): v is (typeof DELAYED_RETRY_TYPES)[number] =>
  typeof v === 'string' && (DELAYED_RETRY_TYPES as readonly string[]).includes(v);

/** What to write instead of a refused delayed-retry policy (lint's help and fix, the upgrade check's fix). */
export const DELAYED_RETRY_POLICY_FIX =
  'delayed-retry-type all, failed or returned with delayed-retry-min, a positive integer (ms); delayed-retry-max, if set, a positive integer not below it.';

export type DelayedRetrySetting = 'type' | 'min' | 'max';

/** The broker's reasons for refusing a policy with these settings (4.3.6's words), each with the setting it names. */
export interface DelayedRetryRefusal {
  readonly setting: DelayedRetrySetting;
  /** `value`: the value on its own; `combination`: with the other settings (min required, max not below min) */
  readonly kind: 'value' | 'combination';
  readonly reason: string;
}

export function delayedRetryPolicyRefusals(v: DelayedRetryValues): DelayedRetryRefusal[] {
  const out: DelayedRetryRefusal[] = [];
  if (v.type !== undefined && !validType(v.type))
    out.push({
      setting: 'type',
      kind: 'value',
      reason: `${erl(v.type)} is not a valid delayed retry type. Must be one of: ${DELAYED_RETRY_TYPES.join(', ')}`,
    });
  if (v.min !== undefined && !positiveInt(v.min))
    out.push({
      setting: 'min',
      kind: 'value',
      reason: `${erl(v.min)} is not a valid delayed retry minimum delay. Must be a positive integer`,
    });
  if (v.max !== undefined && !positiveInt(v.max))
    out.push({
      setting: 'max',
      kind: 'value',
      reason: `${erl(v.max)} is not a valid delayed retry maximum delay. Must be a positive integer`,
    });
  if (validType(v.type) && v.type !== 'disabled' && v.min === undefined)
    out.push({
      setting: 'min',
      kind: 'combination',
      reason: `delayed-retry-min is required when delayed-retry-type is ${v.type}`,
    });
  if (positiveInt(v.min) && positiveInt(v.max) && v.max < v.min)
    out.push({
      setting: 'max',
      kind: 'combination',
      reason: `delayed-retry-max (${v.max}) must not be smaller than delayed-retry-min (${v.min})`,
    });
  return out;
}

/** What a quorum queue runs with, given these settings (arguments, or arguments and policies resolved key by key). */
export function effectiveDelayedRetry(v: DelayedRetryValues): DelayedRetry | undefined {
  if (!validType(v.type) || v.type === 'disabled' || !positiveInt(v.min)) return undefined;
  return { type: v.type, minMs: v.min, maxMs: positiveInt(v.max) ? v.max : v.min };
}

/**
 * Queue arguments the broker accepts but does not run as written: each with what it does
 * instead (the argument named as written, x-delayed-retry-*). Empty when they run as written.
 */
export function delayedRetryArgumentNotes(
  v: DelayedRetryValues,
): { readonly setting: DelayedRetrySetting; readonly message: string }[] {
  const out: { setting: DelayedRetrySetting; message: string }[] = [];
  const off =
    'RabbitMQ 4.3 declares the queue anyway and runs it with delayed retry disabled (returns come back at once)';
  if (v.type !== undefined && !validType(v.type)) {
    out.push({
      setting: 'type',
      message: `x-delayed-retry-type ${JSON.stringify(v.type)} is not one of ${DELAYED_RETRY_TYPES.join(', ')} (case-sensitive): ${off}; a policy with it is refused`,
    });
    return out;
  }
  const enabled = validType(v.type) && v.type !== 'disabled';
  if (v.min !== undefined && !positiveInt(v.min))
    out.push({
      setting: 'min',
      message: `x-delayed-retry-min ${JSON.stringify(v.min)} is not a positive integer: ${enabled ? off : 'it has no effect'}; a policy with it is refused`,
    });
  else if (enabled && v.min === undefined)
    out.push({
      setting: 'min',
      message: `x-delayed-retry-type ${v.type} needs x-delayed-retry-min: ${off}; a policy without it is refused`,
    });
  if (!enabled || !positiveInt(v.min)) return out;
  if (v.max !== undefined && !positiveInt(v.max))
    out.push({
      setting: 'max',
      message: `x-delayed-retry-max ${JSON.stringify(v.max)} is not a positive integer: RabbitMQ 4.3 ignores it and uses the min, so every delay is ${v.min} ms; a policy with it is refused`,
    });
  else if (positiveInt(v.max) && v.max < v.min)
    out.push({
      setting: 'max',
      message: `x-delayed-retry-max (${v.max}) is smaller than x-delayed-retry-min (${v.min}): RabbitMQ 4.3 accepts the arguments and every delay is ${v.max} ms (min(min x delivery-count, max)); a policy with them is refused`,
    });
  return out;
}
