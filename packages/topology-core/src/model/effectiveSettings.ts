/**
 * A queue's (or exchange's) effective settings: its arguments combined with the policy and the
 * operator policy that apply, key by key, as RabbitMQ resolves them (rabbit_policy.erl `get0`:
 * policy and operator policy merged first, the lower value winning for numeric keys; then
 * `args_policy_lookup` against the argument with the key's resolution, see policyKeys.ts).
 * The one place this is computed: validation, the simulator, the linter, the deploy plan and
 * the trace all read it. Each value says where it came from.
 */
import type { BrokerProfileId } from './design.js';
import type { AmqpValue, ExchangeDef, PolicyDef, QueueDef } from './definitions.js';
import {
  POLICY_KEYS,
  POLICY_KEY_FOR_ARGUMENT,
  streamReads,
  type PolicyKeySpec,
  type Resolution,
} from './policyKeys.js';
import { choosePolicy, policyTargetOf, type PolicyTarget } from './policyMatch.js';

export type SettingSource =
  | { readonly kind: 'argument'; readonly key: string }
  | { readonly kind: 'policy'; readonly name: string }
  | { readonly kind: 'operator-policy'; readonly name: string };

export interface EffectiveValue {
  readonly value: AmqpValue;
  readonly source: SettingSource;
}

/** The policies in force: the design's (or the vhost's) policies and operator policies. */
export interface PolicySet {
  readonly policies?: readonly PolicyDef[];
  readonly operatorPolicies?: readonly PolicyDef[];
  /** queue name -> the policy the broker reports applying (Topology.policyPins) */
  readonly policyPins?: Readonly<Record<string, string>>;
}

export interface EffectiveSettings {
  readonly name: string;
  readonly target: PolicyTarget;
  /** the policy that applies, if any */
  readonly policy?: string;
  readonly operatorPolicy?: string;
  /** other policies that match with the same priority: RabbitMQ may apply any one of them */
  readonly tiedPolicies: readonly string[];
  /**
   * Keyed by argument name (`x-message-ttl`, `alternate-exchange`), or by the policy key for
   * policy-only settings (`ha-mode`).
   */
  readonly settings: Readonly<Record<string, EffectiveValue>>;
}

export interface EffectiveOptions {
  /** broker line: changes how a negative delivery-limit combines (4.x) */
  readonly profile?: BrokerProfileId;
}

function isNum(v: AmqpValue | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** policy + operator policy for one key: numeric keys take the lower value, otherwise the operator policy wins */
function mergeOperator(p: EffectiveValue | undefined, op: EffectiveValue | undefined): EffectiveValue | undefined {
  if (!p || !op) return p ?? op;
  if (isNum(p.value) && isNum(op.value)) return op.value < p.value ? op : p;
  return op;
}

function resolve(how: Resolution, arg: EffectiveValue, pol: EffectiveValue, profile: BrokerProfileId): EffectiveValue {
  switch (how) {
    case 'argument':
      return arg;
    case 'policy':
      return pol;
    case 'min':
      if (!isNum(arg.value) || !isNum(pol.value)) return arg;
      return pol.value < arg.value ? pol : arg;
    case 'delivery-limit':
      if (!isNum(arg.value) || !isNum(pol.value)) return arg;
      if (profile !== '3.10' && (arg.value < 0 || pol.value < 0)) return pol.value > arg.value ? pol : arg;
      return pol.value < arg.value ? pol : arg;
  }
}

function resolutionFor(s: PolicyKeySpec | undefined, target: PolicyTarget): Resolution {
  if (!s) return 'argument';
  return target === 'quorum' && s.resolveQuorum ? s.resolveQuorum : s.resolve;
}

function effective(
  name: string,
  target: PolicyTarget,
  args: Readonly<Record<string, AmqpValue>>,
  set: PolicySet,
  opts: EffectiveOptions,
): EffectiveSettings {
  const pol = choosePolicy(set.policies, name, target, target === 'exchange' ? undefined : set.policyPins?.[name]);
  const op = choosePolicy(set.operatorPolicies, name, target);
  // no policy applies (most queues of most files): the arguments as they are, without merging tables
  if (!pol.policy && !op.policy)
    return { name, target, tiedPolicies: pol.tiedWith.map((t) => t.name), settings: fromArguments(args) };
  const appliesTo = target === 'exchange' ? 'exchanges' : 'queues';
  const fromPolicy = (p: PolicyDef | undefined, kind: 'policy' | 'operator-policy'): Map<string, EffectiveValue> => {
    const out = new Map<string, EffectiveValue>();
    for (const [k, value] of Object.entries(p?.definition ?? {})) {
      const s = POLICY_KEYS[k];
      if (s && s.appliesTo !== appliesTo) continue;
      // a stream reads only the policy keys of the arguments it accepts (max-age, max-length-bytes, ...)
      if (target === 'stream' && s && !streamReads(s)) continue;
      out.set(s?.argument ?? k, { value, source: { kind, name: p!.name } });
    }
    return out;
  };
  const p = fromPolicy(pol.policy, 'policy');
  const o = fromPolicy(op.policy, 'operator-policy');
  const settings: Record<string, EffectiveValue> = {};
  const keys = new Set([...Object.keys(args), ...p.keys(), ...o.keys()]);
  for (const k of keys) {
    const a: EffectiveValue | undefined = Object.hasOwn(args, k)
      ? { value: args[k]!, source: { kind: 'argument', key: k } }
      : undefined;
    const fromPolicies = mergeOperator(p.get(k), o.get(k));
    const v =
      a && fromPolicies
        ? resolve(
            resolutionFor(POLICY_KEY_FOR_ARGUMENT[k] ?? POLICY_KEYS[k], target),
            a,
            fromPolicies,
            opts.profile ?? '3.10',
          )
        : (a ?? fromPolicies);
    if (v) settings[k] = v;
  }
  return {
    name,
    target,
    ...(pol.policy ? { policy: pol.policy.name } : {}),
    ...(op.policy ? { operatorPolicy: op.policy.name } : {}),
    tiedPolicies: pol.tiedWith.map((t) => t.name),
    settings,
  };
}

export function queueEffectiveSettings(q: QueueDef, set: PolicySet, opts: EffectiveOptions = {}): EffectiveSettings {
  const args = q.arguments ?? {};
  return effective(q.name, policyTargetOf(args['x-queue-type']), args, set, opts);
}

export function exchangeEffectiveSettings(
  x: ExchangeDef,
  set: PolicySet,
  opts: EffectiveOptions = {},
): EffectiveSettings {
  return effective(x.name, 'exchange', x.arguments ?? {}, set, opts);
}

function fromArguments(args: Readonly<Record<string, AmqpValue>>): Record<string, EffectiveValue> {
  const settings: Record<string, EffectiveValue> = {};
  for (const k of Object.keys(args)) settings[k] = { value: args[k]!, source: { kind: 'argument', key: k } };
  return settings;
}

/** The effective settings as a plain argument table (for code that reads `x-` arguments). */
export function effectiveArguments(s: EffectiveSettings): Record<string, AmqpValue> {
  const out: Record<string, AmqpValue> = {};
  for (const k of Object.keys(s.settings)) out[k] = s.settings[k]!.value;
  return out;
}

/** "argument x-message-ttl", "policy NAME", "operator policy NAME" */
export function describeSource(s: SettingSource): string {
  return s.kind === 'argument'
    ? `argument ${s.key}`
    : `${s.kind === 'policy' ? 'policy' : 'operator policy'} ${s.name}`;
}

/** `alternate-exchange`: the argument wins over a policy (rabbit_policy.erl L235-243) */
export function alternateExchangeOf(x: ExchangeDef, policies: readonly PolicyDef[] | undefined): string | undefined {
  const own = x.arguments?.['alternate-exchange'];
  // the argument wins; with no policy for exchanges there is nothing else to read (a 1,000-exchange file asks this of each)
  if (typeof own === 'string') return own;
  if (!(policies ?? []).some((p) => (p['apply-to'] ?? 'all') === 'all' || p['apply-to'] === 'exchanges'))
    return undefined;
  const value = exchangeEffectiveSettings(x, { policies }).settings['alternate-exchange']?.value;
  return typeof value === 'string' ? value : undefined;
}

/** Every queue's and exchange's effective settings, by name (the designer's canvas and inspector read them). */
export interface TopologySettings {
  readonly queues: ReadonlyMap<string, EffectiveSettings>;
  readonly exchanges: ReadonlyMap<string, EffectiveSettings>;
}

export function topologyEffectiveSettings(
  t: { readonly queues: readonly QueueDef[]; readonly exchanges: readonly ExchangeDef[] } & PolicySet,
  opts: EffectiveOptions = {},
): TopologySettings {
  return {
    queues: new Map(t.queues.map((q) => [q.name, queueEffectiveSettings(q, t, opts)])),
    exchanges: new Map(t.exchanges.map((x) => [x.name, exchangeEffectiveSettings(x, t, opts)])),
  };
}

/**
 * Every queue's effective settings in a topology, read once per topology and profile: the linter,
 * the consumer assumption and the horizon ask for the same file's (a design is never changed in
 * place: its identity is its content).
 */
const queueSettingsCache = new WeakMap<object, Map<string, ReadonlyMap<string, EffectiveSettings>>>();

export function queueSettingsOf(
  t: { readonly queues: readonly QueueDef[] } & PolicySet,
  opts: EffectiveOptions = {},
): ReadonlyMap<string, EffectiveSettings> {
  let byProfile = queueSettingsCache.get(t);
  if (!byProfile) queueSettingsCache.set(t, (byProfile = new Map()));
  const key = opts.profile ?? '3.10';
  let m = byProfile.get(key);
  if (!m) byProfile.set(key, (m = new Map(t.queues.map((q) => [q.name, queueEffectiveSettings(q, t, opts)]))));
  return m;
}
