/**
 * The policy keys RabbitMQ recognises, each with the queue/exchange argument it stands for and
 * how the two combine (rabbit_policies.erl validators and merge strategy; per queue type
 * rabbit_amqqueue_process.erl `process_args_policy`, rabbit_quorum_queue.erl
 * `gather_policy_config`/`dead_letter_handler`). Accepted keys were checked against the real
 * brokers: a key outside this table is refused with "are not recognised policy settings".
 */
import type { AmqpValue } from './definitions.js';
import type { BrokerProfileId } from './design.js';
import { EXCHANGE_ARGUMENTS, QUEUE_ARGUMENTS, argumentAllowed, intRange } from './arguments.js';
import { delayedRetryPolicyRefusals, type DelayedRetrySetting } from './delayedRetry.js';

/**
 * How an argument and a policy value for the same setting combine:
 * - `argument`: the argument wins when set (res_arg / queue_arg_has_precedence)
 * - `policy`: the policy wins when set (policy_has_precedence)
 * - `min`: the lower value wins (res_min / fun min/2)
 * - `delivery-limit`: the lower wins; on 4.x a negative value (unlimited) loses to a limit
 *   (rabbit_quorum_queue.erl `resolve_delivery_limit`)
 */
export type Resolution = 'argument' | 'policy' | 'min' | 'delivery-limit';

export interface PolicyKeySpec {
  /** the policy definition key, e.g. `message-ttl` */
  readonly key: string;
  /** the argument it stands for, e.g. `x-message-ttl` (none for policy-only keys such as `ha-mode`) */
  readonly argument?: string;
  readonly appliesTo: 'queues' | 'exchanges';
  /** classic queues and exchanges */
  readonly resolve: Resolution;
  /** quorum queues, when they differ */
  readonly resolveQuorum?: Resolution;
  /** operator policies may set it; with a policy too, the lower value wins (rabbit_policies merge_policy_value) */
  readonly operator: boolean;
  /**
   * Changing it in a policy reaches existing queues (rabbit_amqqueue:policy_changed). False: the
   * queue reads it only when it is declared (placement, cluster size), so only new queues see it.
   */
  readonly inPlace: boolean;
  /** only this broker line accepts the key (measured on 3.10.8 and 4.3.6) */
  readonly only?: '3.x' | '4.x';
  readonly check: (v: AmqpValue) => string | undefined;
}

const oneOf =
  (values: readonly string[]) =>
  (v: AmqpValue): string | undefined =>
    typeof v === 'string' && values.includes(v)
      ? undefined
      : `must be one of ${values.join(', ')}; got ${JSON.stringify(v)}`;
const any = (): undefined => undefined;
/** one delayed-retry value on its own, in the broker's words (the combinations: delayedRetryPolicyRefusals over the definition) */
const delayedRetryCheck =
  (setting: DelayedRetrySetting) =>
  (v: AmqpValue): string | undefined => {
    const r = delayedRetryPolicyRefusals({ [setting]: v }).find((x) => x.setting === setting);
    return r && `is refused by RabbitMQ 4.3: "${r.reason}"`;
  };

function spec(
  key: string,
  s: Omit<PolicyKeySpec, 'key' | 'check' | 'appliesTo' | 'inPlace'> &
    Partial<Pick<PolicyKeySpec, 'check' | 'appliesTo' | 'inPlace'>>,
): PolicyKeySpec {
  const argSpec =
    s.argument !== undefined ? (QUEUE_ARGUMENTS[s.argument] ?? EXCHANGE_ARGUMENTS[s.argument]) : undefined;
  return { key, appliesTo: 'queues', inPlace: true, check: s.check ?? argSpec?.check ?? any, ...s };
}

const SPECS: readonly PolicyKeySpec[] = [
  spec('message-ttl', { argument: 'x-message-ttl', resolve: 'min', operator: true }),
  spec('expires', { argument: 'x-expires', resolve: 'min', operator: true }),
  spec('max-length', { argument: 'x-max-length', resolve: 'min', operator: true }),
  spec('max-length-bytes', { argument: 'x-max-length-bytes', resolve: 'min', operator: true }),
  spec('max-in-memory-length', { argument: 'x-max-in-memory-length', resolve: 'min', operator: true }),
  spec('max-in-memory-bytes', { argument: 'x-max-in-memory-bytes', resolve: 'min', operator: true }),
  spec('delivery-limit', { argument: 'x-delivery-limit', resolve: 'delivery-limit', operator: true }),
  spec('overflow', { argument: 'x-overflow', resolve: 'argument', resolveQuorum: 'policy', operator: false }),
  spec('dead-letter-exchange', { argument: 'x-dead-letter-exchange', resolve: 'argument', operator: false }),
  spec('dead-letter-routing-key', { argument: 'x-dead-letter-routing-key', resolve: 'argument', operator: false }),
  spec('dead-letter-strategy', { argument: 'x-dead-letter-strategy', resolve: 'argument', operator: false }),
  spec('queue-mode', { argument: 'x-queue-mode', resolve: 'argument', operator: false }),
  spec('queue-version', { argument: 'x-queue-version', resolve: 'argument', operator: false }),
  spec('queue-leader-locator', {
    argument: 'x-queue-leader-locator',
    resolve: 'argument',
    operator: false,
    inPlace: false,
    check: oneOf(['client-local', 'balanced', 'random', 'least-leaders']),
  }),
  spec('queue-master-locator', {
    argument: 'x-queue-master-locator',
    resolve: 'argument',
    operator: false,
    inPlace: false,
    only: '3.x',
  }),
  spec('initial-cluster-size', {
    argument: 'x-initial-cluster-size',
    resolve: 'policy',
    operator: false,
    inPlace: false,
    check: intRange(0, 255),
  }),
  spec('target-group-size', {
    argument: 'x-quorum-target-group-size',
    resolve: 'argument',
    operator: false,
    only: '4.x',
  }),
  spec('max-age', { argument: 'x-max-age', resolve: 'argument', operator: false }),
  spec('stream-max-segment-size-bytes', {
    argument: 'x-stream-max-segment-size-bytes',
    resolve: 'argument',
    operator: false,
    check: intRange(0, Number.MAX_SAFE_INTEGER),
  }),
  // stream filtering (3.13+): 3.10.8 refuses the key, 4.3.6 accepts it (measured)
  spec('stream-filter-size-bytes', {
    argument: 'x-stream-filter-size-bytes',
    resolve: 'argument',
    operator: false,
    only: '4.x',
  }),
  spec('consumer-timeout', {
    argument: 'x-consumer-timeout',
    resolve: 'argument',
    operator: false,
    only: '4.x',
    check: intRange(0, Number.MAX_SAFE_INTEGER),
  }),
  spec('delayed-retry-type', {
    argument: 'x-delayed-retry-type',
    resolve: 'argument',
    operator: false,
    only: '4.x',
    check: delayedRetryCheck('type'),
  }),
  spec('delayed-retry-min', {
    argument: 'x-delayed-retry-min',
    resolve: 'argument',
    operator: false,
    only: '4.x',
    check: delayedRetryCheck('min'),
  }),
  spec('delayed-retry-max', {
    argument: 'x-delayed-retry-max',
    resolve: 'argument',
    operator: false,
    only: '4.x',
    check: delayedRetryCheck('max'),
  }),
  // classic mirroring (3.x only; removed in 4.0)
  ...[
    'ha-mode',
    'ha-params',
    'ha-sync-mode',
    'ha-sync-batch-size',
    'ha-promote-on-shutdown',
    'ha-promote-on-failure',
  ].map((k) => spec(k, { resolve: 'policy', operator: false, only: '3.x' })),
  spec('alternate-exchange', {
    argument: 'alternate-exchange',
    appliesTo: 'exchanges',
    resolve: 'argument',
    operator: false,
  }),
];

/** Every recognised policy key. */
export const POLICY_KEYS: Readonly<Record<string, PolicyKeySpec>> = Object.fromEntries(SPECS.map((s) => [s.key, s]));

/** The policy key for an argument (`x-message-ttl` -> `message-ttl`). */
export const POLICY_KEY_FOR_ARGUMENT: Readonly<Record<string, PolicyKeySpec>> = Object.fromEntries(
  SPECS.filter((s) => s.argument !== undefined).map((s) => [s.argument!, s]),
);

/** The broker line a profile models, as `PolicyKeySpec.only` names it. */
export function brokerLine(profile: BrokerProfileId): '3.x' | '4.x' {
  return profile === '3.10' ? '3.x' : '4.x';
}

/** Keys of a policy definition that this broker line refuses ("are not recognised policy settings"). */
export function refusedPolicyKeys(definition: { readonly [k: string]: unknown }, profile: BrokerProfileId): string[] {
  const line = brokerLine(profile);
  return Object.keys(definition).filter((k) => POLICY_KEYS[k]?.only !== undefined && POLICY_KEYS[k]!.only !== line);
}

/** Whether a stream reads this policy key: only the keys of the arguments a stream accepts (max-age, max-length-bytes, ...). */
export function streamReads(s: PolicyKeySpec): boolean {
  const arg = s.argument !== undefined ? QUEUE_ARGUMENTS[s.argument] : undefined;
  return arg !== undefined && argumentAllowed(arg, 'stream');
}
