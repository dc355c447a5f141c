/**
 * The routing keys a message can carry at each exchange and in each queue, as a fixed point
 * over what feeds them: publishers (or, for a definitions file, every exchange a client may
 * publish to), dead-lettering (the dead-letter routing key, else the keys the dead letter
 * carries), consumers' republishes, exchange-to-exchange bindings and alternate exchanges.
 * A direct binding lets only its key through, a topic binding the keys its pattern matches;
 * a fanout or headers exchange passes on the keys that reached it (not "any key").
 * `undefined` is "any key".
 */
import type { AmqpValue, Topology } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { CompiledBinding, ExchangeIndex } from '../routing/exchangeIndex.js';
import { queuesReachedFrom } from '../routing/exchangeReach.js';
import { sampleTopicKey, topicMatches } from '../routing/topicMatcher.js';
import { topicPatternsOverlap } from '../routing/topicOverlap.js';

export type Keys = ReadonlySet<string> | undefined;
const MAX_KEYS = 1000;
const MAX_ROUNDS = 100;
/** A key with a `*` or `#` word stands for the keys a topic binding pattern lets through (a wildcard binding from an exchange that takes any key). */
export const hasWildcard = (k: string): boolean => /(^|\.)[*#](\.|$)/.test(k);

/**
 * Whether a binding of this match kind and key lets through a message whose key is `key`, or, for
 * a pattern `key` (hasWildcard), some of the keys it stands for: two topic patterns overlap when
 * some key matches both (decided exactly: routing/topicOverlap.ts).
 */
export function keyPasses(match: string, bindingKey: string, key: string): boolean {
  const pattern = hasWildcard(key);
  if (match === 'direct') return pattern ? topicMatches(key, bindingKey) : key === bindingKey;
  if (match === 'topic') return pattern ? topicPatternsOverlap(bindingKey, key) : topicMatches(bindingKey, key);
  return true;
}

export interface KeyInputs {
  readonly topology: Topology;
  readonly index: ExchangeIndex;
  readonly args: ReadonlyMap<string, Record<string, AmqpValue>>;
  readonly consumers: readonly ConsumerSpec[];
  /** the design's publishers; empty: any exchange a client may publish to takes any key */
  readonly publishers: readonly PublisherSpec[];
}

export interface ArrivalKeys {
  readonly atExchange: (name: string) => Keys;
  readonly atQueue: (name: string) => Keys;
}

/**
 * Exchanges clients publish to when no publisher is declared: every exchange but the internal
 * ones and the dead-letter exchanges of queues without a TTL (a work queue's error path, which
 * only its dead letters reach), as the vhost importer scaffolds publishers.
 */
function clientEntries(t: Topology, args: KeyInputs['args']): Set<string> {
  const errorPaths = new Set<string>();
  for (const [, a] of args) {
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx === 'string' && a['x-message-ttl'] === undefined) errorPaths.add(dlx);
  }
  return new Set(t.exchanges.filter((x) => !x.internal && !errorPaths.has(x.name)).map((x) => x.name));
}

/**
 * Wait queues: a TTL, and fed by dead letters (some queue's dead-letter exchange reaches them, whatever
 * the key). With no publisher declared a client is assumed to publish by name to any queue, but not to
 * these: their messages come by dead-lettering, with the keys the dead letters carry. So a wait queue that
 * dead-letters to the default exchange with no key of its own sends each message back to the queue its
 * key names, never to itself (ONS census's delayedRedeliveryQueue: corpus/README.md).
 */
function waitQueuesOf(index: ExchangeIndex, args: KeyInputs['args']): Set<string> {
  const fed = new Set<string>();
  const dlxs: string[] = [];
  for (const [, a] of args) {
    const dlx = a['x-dead-letter-exchange'];
    const dlrk = a['x-dead-letter-routing-key'];
    if (dlx === '' && typeof dlrk === 'string') fed.add(dlrk);
    else if (typeof dlx === 'string' && dlx !== '') dlxs.push(dlx);
  }
  for (const q of queuesReachedFrom(index, dlxs)) fed.add(q);
  return new Set([...fed].filter((q) => args.get(q)?.['x-message-ttl'] !== undefined));
}

export function arrivalKeys(inp: KeyInputs): ArrivalKeys {
  const { topology, index, args } = inp;
  const waitQueues = inp.publishers.length === 0 ? waitQueuesOf(index, args) : new Set<string>();
  const atX = new Map<string, Set<string> | undefined>();
  const atQ = new Map<string, Set<string> | undefined>();
  let changed = true;
  const add = (m: Map<string, Set<string> | undefined>, name: string, keys: Keys): void => {
    if (!m.has(name)) {
      m.set(name, keys === undefined ? undefined : new Set(keys));
      changed = true;
      return;
    }
    const cur = m.get(name);
    if (cur === undefined) return;
    if (keys === undefined || cur.size + keys.size > MAX_KEYS) {
      m.set(name, undefined);
      changed = true;
      return;
    }
    for (const k of keys)
      if (!cur.has(k)) {
        cur.add(k);
        changed = true;
      }
  };
  const known = (m: Map<string, Set<string> | undefined>, name: string): Keys =>
    m.has(name) ? m.get(name) : new Set();
  // what a binding from `source` lets through
  const through = (source: string, b: CompiledBinding): Keys => {
    const x = index.exchanges.get(source);
    if (!x) return new Set();
    const keys = known(atX, source);
    if (x.match === 'direct')
      return keys === undefined || keys.has(b.key) || [...keys].some((k) => keyPasses('direct', b.key, k))
        ? new Set([b.key])
        : new Set();
    if (x.match === 'topic') {
      // any key through a wildcard binding: the keys the pattern matches (kept as the pattern), never "any key"
      if (keys === undefined) return new Set([b.key]);
      const out = new Set<string>();
      for (const k of keys) {
        if (!keyPasses('topic', b.key, k)) continue;
        // a pattern narrower than the binding passes whole; a wider one passes as the binding's pattern
        out.add(!hasWildcard(k) || topicMatches(b.key, sampleTopicKey(k)) ? k : b.key);
      }
      return out;
    }
    return keys;
  };
  const republish = (queue: string, a: ConsumerAction): void => {
    if (a.kind === 'retryInProcess') return republish(queue, a.recover);
    if (a.kind === 'defer') return republish(queue, a.then);
    if (a.kind !== 'republish') return;
    if (a.routingKeyFromHeader !== undefined) return add(atX, a.exchange, undefined);
    add(atX, a.exchange, a.routingKey !== undefined ? new Set([a.routingKey]) : known(atQ, queue));
  };
  const entries = inp.publishers.length === 0 ? clientEntries(topology, args) : new Set<string>();
  const ccKeys = (p: PublisherSpec): Keys => {
    const out = new Set([p.routingKey]);
    for (const h of ['CC', 'BCC']) {
      const v = p.properties?.headers?.[h];
      if (v === undefined) continue;
      if (!Array.isArray(v) || v.some((k) => typeof k !== 'string')) return undefined;
      for (const k of v as string[]) out.add(k);
    }
    return out;
  };
  for (let round = 0; changed && round < MAX_ROUNDS; round++) {
    changed = false;
    for (const x of entries) add(atX, x, undefined);
    for (const p of inp.publishers) add(atX, p.exchange, ccKeys(p));
    for (const c of inp.consumers) {
      const b = c.behaviour;
      const actions =
        b.kind === 'worker'
          ? [...b.onFailure.map((r) => r.then), ...(b.onSuccess ? [b.onSuccess] : [])]
          : b.kind === 'router'
            ? b.rules.map((r) => r.then)
            : b.actions;
      for (const a of actions) republish(c.queue, a);
    }
    // the default exchange delivers by queue name: with no publisher declared a client may publish straight to any queue
    const byName = atX.has('') ? atX.get('') : undefined;
    for (const q of topology.queues) {
      if (
        (inp.publishers.length === 0 && !waitQueues.has(q.name)) ||
        (atX.has('') && (byName === undefined || byName.has(q.name)))
      )
        add(atQ, q.name, new Set([q.name]));
      const a = args.get(q.name);
      const dlx = a?.['x-dead-letter-exchange'];
      if (typeof dlx !== 'string') continue;
      const dlrk = a?.['x-dead-letter-routing-key'];
      add(atX, dlx, typeof dlrk === 'string' ? new Set([dlrk]) : known(atQ, q.name));
    }
    for (const x of index.exchanges.values()) {
      if (!atX.has(x.name)) continue;
      for (const b of x.bindings) add(b.dest.kind === 'queue' ? atQ : atX, b.dest.name, through(x.name, b));
      if (x.alternate !== undefined) add(atX, x.alternate, known(atX, x.name));
    }
  }
  // not converged within the bound: say "any key" rather than too few
  const settled = !changed;
  return {
    atExchange: (n) => (settled ? known(atX, n) : undefined),
    atQueue: (n) => (settled ? known(atQ, n) : undefined),
  };
}
