/**
 * rabbitmq-delayed-message-exchange (plugin commit e6c8b16, rabbit_delayed_message_utils.erl
 * `get_delay/1`): integers are used as they are, strings parsed as integers, floats truncated;
 * a message is held only when 0 < x-delay <= 2^32-1, otherwise routed at once.
 */
import type { AmqpValue } from '../model/definitions.js';

export const MAX_DELAY_MS = 4294967295;

/** the delay to hold a message for, or undefined to route it at once */
export function delayOf(headers: { readonly [k: string]: AmqpValue }): number | undefined {
  const v = headers['x-delay'];
  let d: number | undefined;
  if (typeof v === 'number' && Number.isFinite(v)) d = Math.trunc(v);
  else if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) d = parseInt(v, 10);
  if (d === undefined || d <= 0 || d > MAX_DELAY_MS) return undefined;
  return d;
}
