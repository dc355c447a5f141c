/**
 * Which routing keys can reach each exchange of a design, from what the design declares:
 * publishers (and their CC/BCC headers), consumers' republish actions, dead-lettering (the
 * queue's dead-letter routing key, else the keys its messages carry), exchange-to-exchange
 * bindings and alternate exchanges. A fixed point over key sets; `undefined` means "any key"
 * (a key taken from a header, a fanout/headers hop that keeps keys we cannot enumerate, or
 * too many keys to list). The lint rule `binding-never-matches` reads it.
 */
import type { Design } from '../model/design.js';
import type { ConsumerAction } from '../model/consumer.js';
import { topicMatches } from '../routing/topicMatcher.js';
import type { Flow } from './flow.js';

type Keys = Set<string> | undefined;
const MAX_KEYS = 1000;

/** Whether a binding of an exchange of this type with this key lets `key` through. */
export function bindingMatches(type: string | undefined, bindingKey: string, key: string): boolean {
  if (type === 'direct') return bindingKey === key;
  if (type === 'topic') return topicMatches(bindingKey, key);
  return true;
}

export function exchangeKeys(design: Design, flow: Flow): ReadonlyMap<string, Keys> {
  const at = new Map<string, Keys>();
  let changed = true;
  const add = (exchange: string, keys: Keys): void => {
    if (!at.has(exchange)) {
      at.set(exchange, keys === undefined ? undefined : new Set(keys));
      changed = true;
      return;
    }
    const cur = at.get(exchange);
    if (cur === undefined) return;
    if (keys === undefined) {
      at.set(exchange, undefined);
      changed = true;
      return;
    }
    for (const k of keys)
      if (!cur.has(k)) {
        cur.add(k);
        changed = true;
      }
    if (cur.size > MAX_KEYS) at.set(exchange, undefined);
  };
  const types = new Map(design.topology.exchanges.map((x) => [x.name, x.type as string]));
  // the keys messages in a queue can carry: what its bindings let through, plus the default exchange
  const queueKeys = (queue: string): Keys => {
    const out = new Set<string>();
    for (const [x, keys] of at) if (x === '' && (keys === undefined || keys.has(queue))) out.add(queue);
    for (const b of design.topology.bindings) {
      if (b.destination_type !== 'queue' || b.destination !== queue || !at.has(b.source)) continue;
      const keys = at.get(b.source);
      if (keys === undefined) return undefined;
      for (const k of keys) if (bindingMatches(types.get(b.source), b.routing_key, k)) out.add(k);
    }
    return out;
  };
  const ccKeys = (headers: Readonly<Record<string, unknown>> | undefined): Keys => {
    const out = new Set<string>();
    for (const h of ['CC', 'BCC']) {
      const v = headers?.[h];
      if (v === undefined) continue;
      if (!Array.isArray(v) || v.some((k) => typeof k !== 'string')) return undefined;
      for (const k of v as string[]) out.add(k);
    }
    return out;
  };
  const republish = (queue: string, a: ConsumerAction): void => {
    if (a.kind === 'retryInProcess') return republish(queue, a.recover);
    if (a.kind === 'defer') return republish(queue, a.then);
    if (a.kind !== 'republish') return;
    if (a.routingKeyFromHeader !== undefined) return add(a.exchange, undefined);
    add(a.exchange, a.routingKey !== undefined ? new Set([a.routingKey]) : queueKeys(queue));
  };
  for (let round = 0; changed && round < 50; round++) {
    changed = false;
    for (const p of design.publishers) {
      const cc = ccKeys(p.properties?.headers);
      add(p.exchange, cc === undefined ? undefined : new Set([p.routingKey, ...cc]));
    }
    for (const c of design.consumers) {
      const b = c.behaviour;
      const actions =
        b.kind === 'worker'
          ? [...b.onFailure.map((r) => r.then), ...(b.onSuccess ? [b.onSuccess] : [])]
          : b.kind === 'router'
            ? b.rules.map((r) => r.then)
            : b.actions;
      for (const a of actions) republish(c.queue, a);
    }
    for (const q of design.topology.queues) {
      const a = flow.args.get(q.name);
      const dlx = a?.['x-dead-letter-exchange'];
      if (typeof dlx !== 'string') continue;
      const dlrk = a?.['x-dead-letter-routing-key'];
      add(dlx, typeof dlrk === 'string' ? new Set([dlrk]) : queueKeys(q.name));
    }
    for (const b of design.topology.bindings) {
      if (b.destination_type !== 'exchange' || !at.has(b.source)) continue;
      const keys = at.get(b.source);
      add(
        b.destination,
        keys === undefined
          ? undefined
          : new Set([...keys].filter((k) => bindingMatches(types.get(b.source), b.routing_key, k))),
      );
    }
    for (const x of design.topology.exchanges) {
      // the alternate exchange in force (argument, or a policy's: routing/exchangeIndex.ts)
      const ae = flow.index.exchanges.get(x.name)?.alternate;
      if (ae !== undefined && at.has(x.name)) add(ae, at.get(x.name));
    }
  }
  return at;
}
