/**
 * A static view of where messages can go: effective queue arguments (arguments, policies and
 * operator policies combined by model/effectiveSettings.ts),
 * conservative routing (headers and radlx exchanges may reach any of their destinations),
 * and per-queue dead-letter and republish targets. The linter reasons over it.
 */
import type { AmqpValue, Topology } from '../model/definitions.js';
import { builtinExchangeType } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import { compileExchanges, type ExchangeIndex } from '../routing/exchangeIndex.js';
import { topicWords, topicWordsMatch } from '../routing/topicMatcher.js';
import type { PublisherSpec } from '../model/publisher.js';
import { arrivalKeys as computeArrivalKeys, hasWildcard, keyPasses, type ArrivalKeys } from './arrivalKeys.js';
import {
  effectiveArguments,
  exchangeEffectiveSettings,
  queueEffectiveSettings,
  queueSettingsOf,
  type EffectiveSettings,
} from '../model/effectiveSettings.js';
import { configOfSettings, queueConfig, type QueueConfig } from '../sim/queueConfig.js';
import { PROFILE_3_10, type SemanticsProfile } from '../sim/profiles.js';

/** Queue arguments with the policies that apply folded in (model/effectiveSettings.ts). */
export function effectiveQueueArgs(t: Topology, name: string): Record<string, AmqpValue> {
  const q = t.queues.find((x) => x.name === name);
  return effectiveArguments(queueEffectiveSettings(q ?? { name }, t));
}

export interface Flow {
  readonly topology: Topology;
  readonly index: ExchangeIndex;
  /** each queue's effective settings as plain values (arguments, policies and operator policies, as the profile's broker resolves them) */
  readonly args: ReadonlyMap<string, Record<string, AmqpValue>>;
  /** a queue's effective settings, each value with where it came from (model/effectiveSettings.ts) */
  settings(queue: string): EffectiveSettings | undefined;
  /** a queue as the profile's broker runs it: the effective settings with the profile's defaults (sim/queueConfig.ts); another profile may be asked */
  config(queue: string, semantics?: SemanticsProfile): QueueConfig | undefined;
  /** an exchange's effective settings (arguments and policies), each value with where it came from */
  exchangeSettings(exchange: string): EffectiveSettings | undefined;
  /** the queues and exchanges a policy governs: where it applies, or may (tied at the top); not where one outranks it */
  governedBy(policy: string): { readonly queues: readonly string[]; readonly exchanges: readonly string[] };
  readonly consumersByQueue: ReadonlyMap<string, readonly ConsumerSpec[]>;
  /** queues an exchange can route to for these keys (undefined keys: any key) */
  possibleQueues(exchange: string, keys: readonly string[] | undefined): Set<string>;
  /** routing keys a message can carry when it sits in this queue (undefined: any key; lint/arrivalKeys.ts) */
  arrivalKeys(queue: string): readonly string[] | undefined;
  /** routing keys a message can carry when it reaches this exchange (undefined: any key) */
  keysAtExchange(exchange: string): readonly string[] | undefined;
  /** where a dead letter from this queue can go (undefined: no DLX); shared between queues, never change it */
  deadLetterTargets(queue: string): ReadonlySet<string> | undefined;
  /** exchanges on the dead-letter path of a queue */
  readonly exchangeType: (name: string) => string | undefined;
}

export function buildFlow(
  topology: Topology,
  consumers: readonly ConsumerSpec[],
  publishers: readonly PublisherSpec[] = [],
  semantics: SemanticsProfile = PROFILE_3_10,
): Flow {
  const index = compileExchanges(topology);
  const queueDefs = new Map(topology.queues.map((q) => [q.name, q]));
  const effective = queueSettingsOf(topology, { profile: semantics.id });
  const args = new Map([...effective].map(([name, s]) => [name, effectiveArguments(s)]));
  const configs = new Map<string, QueueConfig>();
  const config = (queue: string, other?: SemanticsProfile): QueueConfig | undefined => {
    const q = queueDefs.get(queue);
    if (!q) return undefined;
    const p = other ?? semantics;
    if (p !== semantics) return queueConfig(q, topology.policies, p, undefined, topology.policyPins);
    // the flow's own profile: from the effective settings already read
    let c = configs.get(queue);
    if (!c) configs.set(queue, (c = configOfSettings(queue, effective.get(queue)!.settings, p)));
    return c;
  };
  const consumersByQueue = new Map<string, ConsumerSpec[]>();
  for (const c of consumers) consumersByQueue.set(c.queue, [...(consumersByQueue.get(c.queue) ?? []), c]);
  const types = new Map(topology.exchanges.map((x) => [x.name, x.type as string]));

  // "any key" answers depend on the exchange alone: computed once (a 10,000-queue file asks for them per queue)
  const anyKey = new Map<string, Set<string>>();
  function possibleQueues(exchange: string, keys: readonly string[] | undefined): Set<string> {
    if (keys === undefined) {
      let r = anyKey.get(exchange);
      if (!r) anyKey.set(exchange, (r = routeKeys(index, exchange, undefined)));
      return new Set(r);
    }
    return routeKeys(index, exchange, keys);
  }
  let keys: ArrivalKeys | undefined;
  function arrivalKeys(queue: string): readonly string[] | undefined {
    keys ??= computeArrivalKeys({ topology, index, args, consumers, publishers });
    const k = keys.atQueue(queue);
    return k === undefined ? undefined : [...k];
  }
  function keysAtExchange(exchange: string): readonly string[] | undefined {
    keys ??= computeArrivalKeys({ topology, index, args, consumers, publishers });
    const k = keys.atExchange(exchange);
    return k === undefined ? undefined : [...k];
  }

  // shared, read-only answers: queues whose dead letters may take any key share one set per exchange
  const dlTargets = new Map<string, ReadonlySet<string> | undefined>();
  const sharedAnyKey = new Map<string, ReadonlySet<string>>();
  function deadLetterTargets(queue: string): ReadonlySet<string> | undefined {
    if (dlTargets.has(queue)) return dlTargets.get(queue);
    const r = deadLetterTargetsOf(queue);
    dlTargets.set(queue, r);
    return r;
  }
  function deadLetterTargetsOf(queue: string): ReadonlySet<string> | undefined {
    const a = args.get(queue);
    const dlx = a?.['x-dead-letter-exchange'];
    if (typeof dlx !== 'string') return undefined;
    const dlrk = a?.['x-dead-letter-routing-key'];
    const keys = typeof dlrk === 'string' ? [dlrk] : arrivalKeys(queue);
    if (keys !== undefined) return possibleQueues(dlx, keys);
    let s = sharedAnyKey.get(dlx);
    if (!s) sharedAnyKey.set(dlx, (s = possibleQueues(dlx, undefined)));
    return s;
  }

  let exchangeEffective: Map<string, EffectiveSettings> | undefined;
  const exchangeSettings = (name: string): EffectiveSettings | undefined => {
    exchangeEffective ??= new Map(
      topology.exchanges.map((x) => [x.name, exchangeEffectiveSettings(x, topology, { profile: semantics.id })]),
    );
    return exchangeEffective.get(name);
  };
  // who each policy governs, read once from every object's effective settings (a pass per policy was Q x P)
  let governed: Map<string, { queues: string[]; exchanges: string[] }> | undefined;
  const governedBy = (policy: string): { queues: readonly string[]; exchanges: readonly string[] } => {
    if (!governed) {
      const g = new Map<string, { queues: string[]; exchanges: string[] }>();
      const at = (name: string) => {
        let e = g.get(name);
        if (!e) g.set(name, (e = { queues: [], exchanges: [] }));
        return e;
      };
      for (const [q, s] of effective) for (const p of [s.policy, ...s.tiedPolicies]) if (p) at(p).queues.push(q);
      // exchanges only when some policy may apply to one (a 1,000-exchange file of queue policies reads none)
      const forExchanges = (topology.policies ?? []).some(
        (p) => (p['apply-to'] ?? 'all') === 'all' || p['apply-to'] === 'exchanges',
      );
      for (const x of forExchanges ? topology.exchanges : []) {
        const s = exchangeSettings(x.name)!;
        for (const p of [s.policy, ...s.tiedPolicies]) if (p) at(p).exchanges.push(x.name);
      }
      governed = g;
    }
    return governed.get(policy) ?? { queues: [], exchanges: [] };
  };

  return {
    topology,
    index,
    args,
    settings: (queue) => effective.get(queue),
    config,
    exchangeSettings,
    governedBy,
    consumersByQueue,
    possibleQueues,
    arrivalKeys,
    keysAtExchange,
    deadLetterTargets,
    exchangeType: (n) => types.get(n) ?? builtinExchangeType(n),
  };
}

/**
 * The queues a message published to `exchange` with one of `keys` (undefined: any key) can reach,
 * following exchange-to-exchange bindings and alternate exchanges.
 */
function routeKeys(index: ExchangeIndex, exchange: string, keys: readonly string[] | undefined): Set<string> {
  const out = new Set<string>();
  if (exchange === '') {
    for (const k of keys ?? [...index.queues]) if (index.queues.has(k)) out.add(k);
    return out;
  }
  const seen = new Set<string>();
  const work = [exchange];
  // split and indexed once per call, not once per binding
  let keyWords: (readonly string[])[] | undefined;
  let keySet: ReadonlySet<string> | undefined;
  // a pattern key (a wildcard binding's keys, lint/arrivalKeys.ts) reaches every binding it overlaps
  const patterns = keys?.filter(hasWildcard) ?? [];
  while (work.length > 0) {
    const name = work.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const x = index.exchanges.get(name);
    if (!x) continue;
    let matched = 0;
    if (keys !== undefined && x.match === 'direct' && patterns.length === 0) {
      // a direct exchange's bindings by key (exchangeIndex.ts): no walk over every binding
      for (const k of keys)
        for (const d of x.direct.get(k) ?? []) {
          matched++;
          if (d.kind === 'queue') out.add(d.name);
          else work.push(d.name);
        }
      if (matched === 0 && x.alternate) work.push(x.alternate);
      continue;
    }
    for (const b of x.bindings) {
      let ok: boolean;
      if (keys === undefined || x.match === 'fanout' || x.match === 'headers' || x.match === 'radlx') ok = true;
      else if (x.match === 'direct')
        ok = (keySet ??= new Set(keys)).has(b.key) || patterns.some((k) => keyPasses('direct', b.key, k));
      else
        ok =
          (keyWords ??= keys.map(topicWords)).some((w) => topicWordsMatch(b.words, w)) ||
          patterns.some((k) => keyPasses('topic', b.key, k));
      if (!ok) continue;
      matched++;
      if (b.dest.kind === 'queue') out.add(b.dest.name);
      else work.push(b.dest.name);
    }
    if (matched === 0 && x.alternate) work.push(x.alternate);
  }
  return out;
}

/**
 * A rule bounds a retry when its condition looks at a counter or the redelivered flag. Not the
 * `held` counter: a batch size says when the batch is settled, not how often a message returns.
 */
export function isBounding(r: Rule): boolean {
  const w = r.when;
  if (w === undefined) return false;
  if (w.kind === 'lt' || w.kind === 'gte') return w.counter.kind !== 'held';
  return w.kind === 'redelivered';
}

/** The actions a consumer may take on failure (or, for routers, on any message), with whether a bound guards them. */
export function failureActions(c: ConsumerSpec): { readonly action: ConsumerAction; readonly bounded: boolean }[] {
  const b = c.behaviour;
  const rules: readonly Rule[] =
    b.kind === 'worker' ? b.onFailure : b.kind === 'router' ? b.rules : b.actions.map((a) => ({ then: a }));
  const out: { action: ConsumerAction; bounded: boolean }[] = [];
  let guardSeen = false;
  for (const r of rules) {
    if (isBounding(r)) guardSeen = true;
    const push = (a: ConsumerAction, inProcess = false): void => {
      out.push({ action: a, bounded: guardSeen || inProcess });
      if (a.kind === 'retryInProcess') push(a.recover, false);
      if (a.kind === 'defer') push(a.then, inProcess);
    };
    push(r.then);
  }
  // a script is finite: its last action repeats, so only the last one can loop
  if (b.kind === 'script') return out.slice(-1).map((x) => ({ ...x, bounded: false }));
  return out;
}

/** Queues a consumer action sends the message to (undefined routing key from a header: back to its origin). */
export function actionTargets(flow: Flow, fromQueue: string, a: ConsumerAction): ReadonlySet<string> {
  if (a.kind === 'reject') return flow.deadLetterTargets(fromQueue) ?? new Set();
  if (a.kind === 'requeue') return new Set([fromQueue]);
  if (a.kind === 'republish') {
    if (a.routingKeyFromHeader !== undefined) {
      // typically x-first-death-queue: any queue that dead-letters into this one
      const origins = new Set<string>();
      for (const q of flow.topology.queues) if (reaches(flow, q.name, fromQueue)) origins.add(q.name);
      return origins;
    }
    return flow.possibleQueues(a.exchange, a.routingKey !== undefined ? [a.routingKey] : flow.arrivalKeys(fromQueue));
  }
  return new Set();
}

/** Whether a message dead-lettered/expired from `from` can arrive in `to` (through queues without consumers). */
function reaches(flow: Flow, from: string, to: string, seen = new Set<string>()): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  const t = flow.deadLetterTargets(from);
  if (!t) return false;
  if (t.has(to)) return true;
  for (const q of t) if (!flow.consumersByQueue.has(q) && reaches(flow, q, to, seen)) return true;
  return false;
}
