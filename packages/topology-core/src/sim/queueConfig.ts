/**
 * A queue's effective settings: its arguments combined with the policy that applies, using
 * RabbitMQ's resolution rules (srv@v3.10.8 rabbit_amqqueue_process.erl L416-431,
 * rabbit_quorum_queue.erl L251-259, L371-375; docs `parameters#policies`).
 */
import type { AmqpTable, AmqpValue, PolicyDef, QueueDef, ExchangeDef } from '../model/definitions.js';
import type { SemanticsProfile } from './profiles.js';

export type Overflow = 'drop-head' | 'reject-publish' | 'reject-publish-dlx';

export interface QueueConfig {
  readonly name: string;
  readonly quorum: boolean;
  readonly ttl: number | undefined;
  readonly maxLength: number | undefined;
  readonly maxBytes: number | undefined;
  readonly overflow: Overflow;
  readonly dlx: string | undefined;
  readonly dlrk: string | undefined;
  /** quorum only; undefined = unlimited */
  readonly deliveryLimit: number | undefined;
  readonly atLeastOnce: boolean;
  /** x-expires / policy `expires`: delete the queue after this long unused */
  readonly expires: number | undefined;
  /** 4.3 quorum delayed retry (docs quorum-queues#delayed-retry); undefined when off or unsupported */
  readonly delayedRetry: DelayedRetry | undefined;
  /** arguments / policy keys this profile ignores (reported in the result) */
  readonly ignored: readonly { readonly argument: string; readonly why: string }[];
}

export interface DelayedRetry {
  /** all: every return; failed: only returns that incremented delivery-count (basic.reject); returned: only those that did not (basic.nack) */
  readonly type: 'all' | 'failed' | 'returned';
  readonly minMs: number;
  /** undefined: no cap */
  readonly maxMs: number | undefined;
}

const DELAYED_RETRY_TYPES = new Set(['disabled', 'all', 'failed', 'returned']);

/**
 * x-delayed-retry-type/-min/-max, or the policy keys delayed-retry-* (docs: "queue arguments,
 * queue policies, or both"; the docs give no precedence: here the argument wins, key by key).
 * `min` is required when enabled: without it there is no delay.
 */
function delayedRetryOf(a: AmqpTable, p: AmqpTable): DelayedRetry | undefined {
  const type = str(a['x-delayed-retry-type']) ?? str(p['delayed-retry-type']);
  const minMs = num(a['x-delayed-retry-min']) ?? num(p['delayed-retry-min']);
  const maxMs = num(a['x-delayed-retry-max']) ?? num(p['delayed-retry-max']);
  if (type === undefined || !DELAYED_RETRY_TYPES.has(type) || type === 'disabled' || minMs === undefined || minMs < 0) return undefined;
  return { type: type as DelayedRetry['type'], minMs, maxMs };
}

function delayedRetryKeys(a: AmqpTable, p: AmqpTable): string[] {
  return [...Object.keys(a).filter((k) => k.startsWith('x-delayed-retry-')), ...Object.keys(p).filter((k) => k.startsWith('delayed-retry-'))];
}

function matchesPolicy(p: PolicyDef, name: string, kind: 'queues' | 'exchanges'): boolean {
  const applyTo = p['apply-to'] ?? 'all';
  if (applyTo !== 'all' && applyTo !== kind) return false;
  try {
    return new RegExp(p.pattern).test(name);
  } catch {
    return false;
  }
}

/** the one policy that applies: highest priority, then (as RabbitMQ) the last one listed */
export function policyFor(
  policies: readonly PolicyDef[] | undefined,
  name: string,
  kind: 'queues' | 'exchanges',
): AmqpTable | undefined {
  let best: PolicyDef | undefined;
  for (const p of policies ?? []) {
    if (!matchesPolicy(p, name, kind)) continue;
    if (!best || (p.priority ?? 0) >= (best.priority ?? 0)) best = p;
  }
  return best?.definition;
}

function num(v: AmqpValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined;
}
function str(v: AmqpValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
function asOverflow(v: string | undefined): Overflow | undefined {
  return v === 'drop-head' || v === 'reject-publish' || v === 'reject-publish-dlx' ? v : undefined;
}

export function queueConfig(q: QueueDef, policies: readonly PolicyDef[] | undefined, profile: SemanticsProfile): QueueConfig {
  const a = q.arguments ?? {};
  const p = policyFor(policies, q.name, 'queues') ?? {};
  const quorum = a['x-queue-type'] === 'quorum';
  const argOverflow = asOverflow(str(a['x-overflow']));
  const polOverflow = asOverflow(str(p['overflow']));
  // classic: the argument wins; quorum: the policy wins
  let overflow: Overflow = (quorum ? (polOverflow ?? argOverflow) : (argOverflow ?? polOverflow)) ?? 'drop-head';
  // a quorum queue does not support reject-publish-dlx: it uses drop-head (rabbit_quorum_queue.erl L1647-1653)
  if (quorum && overflow === 'reject-publish-dlx') overflow = 'drop-head';
  let deliveryLimit: number | undefined;
  if (quorum) {
    deliveryLimit = minDefined(num(a['x-delivery-limit']), num(p['delivery-limit']));
    if (profile.quorumDefaultDeliveryLimit !== undefined) {
      // 4.0+: default 20; -1 disables the limit (srv@v4.0.9 rabbit_quorum_queue.erl L111, L332-345, L371-375)
      if (deliveryLimit === undefined) deliveryLimit = profile.quorumDefaultDeliveryLimit;
      if (deliveryLimit < 0) deliveryLimit = undefined;
    } else if (deliveryLimit !== undefined && deliveryLimit < 0) deliveryLimit = undefined;
  }
  const strategy = str(a['x-dead-letter-strategy']) ?? str(p['dead-letter-strategy']);
  const retryKeys = delayedRetryKeys(a, p);
  const supported = quorum && profile.quorumDelayedRetry;
  const why = !quorum ? 'delayed retry is a quorum-queue feature' : `RabbitMQ ${profile.id === '4.x' ? '4.0-4.2' : profile.id} has no quorum-queue delayed retry (4.3+)`;
  return {
    name: q.name,
    quorum,
    ttl: minDefined(num(a['x-message-ttl']), num(p['message-ttl'])),
    maxLength: minDefined(num(a['x-max-length']), num(p['max-length'])),
    maxBytes: minDefined(num(a['x-max-length-bytes']), num(p['max-length-bytes'])),
    overflow,
    dlx: str(a['x-dead-letter-exchange']) ?? str(p['dead-letter-exchange']),
    dlrk: str(a['x-dead-letter-routing-key']) ?? str(p['dead-letter-routing-key']),
    deliveryLimit,
    // at-least-once needs overflow reject-publish, otherwise it falls back (rabbit_quorum_queue.erl L1280-1324)
    atLeastOnce: quorum && strategy === 'at-least-once' && overflow === 'reject-publish',
    expires: minDefined(num(a['x-expires']), num(p['expires'])),
    delayedRetry: supported ? delayedRetryOf(a, p) : undefined,
    ignored: supported ? [] : retryKeys.map((argument) => ({ argument, why })),
  };
}

/** `alternate-exchange`: the argument wins over a policy (rabbit_policy.erl L235-243) */
export function alternateExchangeOf(x: ExchangeDef, policies: readonly PolicyDef[] | undefined): string | undefined {
  return str(x.arguments?.['alternate-exchange']) ?? str(policyFor(policies, x.name, 'exchanges')?.['alternate-exchange']);
}
