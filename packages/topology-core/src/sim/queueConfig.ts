/**
 * The simulator's view of a queue: its effective settings (model/effectiveSettings.ts, which
 * combines arguments, policies and operator policies) read into the fields the simulator uses,
 * with the profile's defaults (4.x quorum delivery limit) and fallbacks applied.
 */
import type { AmqpValue, PolicyDef, QueueDef } from '../model/definitions.js';
import { queueEffectiveSettings, type EffectiveSettings } from '../model/effectiveSettings.js';
import { effectiveDelayedRetry, type DelayedRetry } from '../model/delayedRetry.js';
import type { SemanticsProfile } from './profiles.js';

export type Overflow = 'drop-head' | 'reject-publish' | 'reject-publish-dlx';

export interface QueueConfig {
  readonly name: string;
  readonly quorum: boolean;
  /** x-queue-type stream: an append-only log read by offset (sim/stream.ts); no TTL, limits or dead-lettering */
  readonly stream: boolean;
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

export type { DelayedRetry };

/**
 * x-delayed-retry-type/-min/-max or the policy keys delayed-retry-* (docs: "queue arguments,
 * queue policies, or both"; resolved key by key in effectiveSettings), as 4.3.6 runs them
 * (model/delayedRetry.ts, measured): a bad type or a missing or bad min leaves it disabled, a
 * missing or bad max is the min (every delay is min).
 */
function delayedRetryOf(s: Settings): DelayedRetry | undefined {
  return effectiveDelayedRetry({
    type: s['x-delayed-retry-type']?.value,
    min: s['x-delayed-retry-min']?.value,
    max: s['x-delayed-retry-max']?.value,
  });
}

/** the delayed-retry settings present, named as they were written (argument or policy key) */
function delayedRetryKeys(s: Settings): string[] {
  return Object.entries(s)
    .filter(([k]) => k.startsWith('x-delayed-retry-'))
    .map(([k, v]) => (v.source.kind === 'argument' ? k : k.slice(2)));
}

type Settings = EffectiveSettings['settings'];

function num(v: AmqpValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined;
}
function str(v: AmqpValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function asOverflow(v: string | undefined): Overflow | undefined {
  return v === 'drop-head' || v === 'reject-publish' || v === 'reject-publish-dlx' ? v : undefined;
}

export function queueConfig(
  q: QueueDef,
  policies: readonly PolicyDef[] | undefined,
  profile: SemanticsProfile,
  operatorPolicies?: readonly PolicyDef[],
  policyPins?: Readonly<Record<string, string>>,
): QueueConfig {
  const s = queueEffectiveSettings(
    q,
    { policies, operatorPolicies, ...(policyPins ? { policyPins } : {}) },
    { profile: profile.id },
  ).settings;
  return configOfSettings(q.name, s, profile);
}

/** The simulator's view of a queue from its effective settings already read (resolved for `profile`). */
export function configOfSettings(name: string, s: Settings, profile: SemanticsProfile): QueueConfig {
  const q = { name };
  const val = (k: string): AmqpValue | undefined => s[k]?.value;
  const quorum = val('x-queue-type') === 'quorum';
  if (val('x-queue-type') === 'stream') return streamConfig(q.name);
  let overflow: Overflow = asOverflow(str(val('x-overflow'))) ?? 'drop-head';
  // a quorum queue does not support reject-publish-dlx: it uses drop-head (rabbit_quorum_queue.erl L1647-1653)
  if (quorum && overflow === 'reject-publish-dlx') overflow = 'drop-head';
  let deliveryLimit: number | undefined;
  if (quorum) {
    deliveryLimit = num(val('x-delivery-limit'));
    // 4.0+: default 20 (srv@v4.0.9 rabbit_quorum_queue.erl L111, L332-345); -1 disables the limit
    if (deliveryLimit === undefined) deliveryLimit = profile.quorumDefaultDeliveryLimit;
    if (deliveryLimit !== undefined && deliveryLimit < 0) deliveryLimit = undefined;
  }
  const strategy = str(val('x-dead-letter-strategy'));
  const retryKeys = delayedRetryKeys(s);
  const supported = quorum && profile.quorumDelayedRetry;
  const why = !quorum
    ? 'delayed retry is a quorum-queue feature'
    : `RabbitMQ ${profile.id === '4.x' ? '4.0-4.2' : profile.id} has no quorum-queue delayed retry (4.3+)`;
  return {
    name: q.name,
    quorum,
    stream: false,
    ttl: num(val('x-message-ttl')),
    maxLength: num(val('x-max-length')),
    maxBytes: num(val('x-max-length-bytes')),
    overflow,
    dlx: str(val('x-dead-letter-exchange')),
    dlrk: str(val('x-dead-letter-routing-key')),
    deliveryLimit,
    // at-least-once needs overflow reject-publish, otherwise it falls back (rabbit_quorum_queue.erl L1280-1324)
    atLeastOnce: quorum && strategy === 'at-least-once' && overflow === 'reject-publish',
    expires: num(val('x-expires')),
    delayedRetry: supported ? delayedRetryOf(s) : undefined,
    ignored: supported ? [] : retryKeys.map((argument) => ({ argument, why })),
  };
}

/**
 * A stream keeps every message until retention removes whole segments (x-max-age,
 * x-max-length-bytes: not modelled, a run is far shorter than any segment); it accepts no TTL,
 * length limit, expiry or dead-letter argument (the validator refuses them).
 */
function streamConfig(name: string): QueueConfig {
  return {
    name,
    quorum: false,
    stream: true,
    ttl: undefined,
    maxLength: undefined,
    maxBytes: undefined,
    overflow: 'drop-head',
    dlx: undefined,
    dlrk: undefined,
    deliveryLimit: undefined,
    atLeastOnce: false,
    expires: undefined,
    delayedRetry: undefined,
    ignored: [],
  };
}
