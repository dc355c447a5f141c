/**
 * Exchanges compiled for routing: bindings grouped by source and pre-split per type, so that
 * routing a message does no parsing.
 */
import type { AmqpTable, ExchangeType, Topology } from '../model/definitions.js';
import { PLUGIN_EXCHANGE_TYPES, builtinExchangeType } from '../model/definitions.js';
import { alternateExchangeOf } from '../model/effectiveSettings.js';
import { topicWords } from './topicMatcher.js';

export interface Dest {
  readonly kind: 'queue' | 'exchange';
  readonly name: string;
}

export interface CompiledBinding {
  readonly dest: Dest;
  readonly key: string;
  readonly words: readonly string[];
  readonly args: AmqpTable | undefined;
  /** has header-match arguments (radlx: not registered as a topic binding) */
  readonly hasArgs: boolean;
}

/** how an exchange matches: its own type, or a delayed exchange's x-delayed-type */
export type MatchType = 'direct' | 'fanout' | 'topic' | 'headers' | 'radlx';

export interface CompiledExchange {
  readonly name: string;
  readonly type: ExchangeType;
  readonly match: MatchType;
  readonly delayed: boolean;
  /** internal: clients may not publish to it (ACCESS_REFUSED); bindings, AEs and DLXs may */
  readonly internal: boolean;
  readonly alternate: string | undefined;
  readonly bindings: readonly CompiledBinding[];
  /** direct: routing key -> destinations */
  readonly direct: Map<string, Dest[]>;
}

export interface ExchangeIndex {
  readonly exchanges: Map<string, CompiledExchange>;
  readonly queues: Set<string>;
  /** routing results from this exchange depend only on the routing keys (no headers, delays, radlx) */
  readonly cacheable: Set<string>;
}

export function compileExchanges(topology: Topology, plugins?: readonly string[]): ExchangeIndex {
  const available = new Set<string>(plugins ?? PLUGIN_EXCHANGE_TYPES);
  const queues = new Set(topology.queues.map((q) => q.name));
  const byName = new Map<string, CompiledExchange>();
  for (const x of topology.exchanges) {
    if (x.name === '') continue;
    const isPlugin = (PLUGIN_EXCHANGE_TYPES as readonly string[]).includes(x.type);
    if (isPlugin && !available.has(x.type)) continue; // the broker cannot declare it
    const delayed = x.type === 'x-delayed-message';
    const underlying = delayed ? x.arguments?.['x-delayed-type'] : x.type;
    const match: MatchType =
      underlying === 'direct' ||
      underlying === 'fanout' ||
      underlying === 'topic' ||
      underlying === 'headers' ||
      underlying === 'radlx'
        ? underlying
        : 'direct';
    byName.set(x.name, {
      name: x.name,
      type: x.type,
      match,
      delayed,
      internal: x.internal === true,
      alternate: alternateExchangeOf(x, topology.policies),
      bindings: [],
      direct: new Map(),
    });
  }
  // a built-in amq.* exchange a binding uses routes as on every broker (never declared by a design)
  for (const b of topology.bindings)
    for (const name of b.destination_type === 'exchange' ? [b.source, b.destination] : [b.source]) {
      const type = builtinExchangeType(name);
      if (type && !byName.has(name))
        byName.set(name, {
          name,
          type,
          match: type,
          delayed: false,
          internal: false,
          alternate: undefined,
          bindings: [],
          direct: new Map(),
        });
    }
  for (const b of topology.bindings) {
    const src = byName.get(b.source);
    if (!src) continue;
    const dest: Dest = { kind: b.destination_type === 'exchange' ? 'exchange' : 'queue', name: b.destination };
    if (dest.kind === 'queue' ? !queues.has(dest.name) : !byName.has(dest.name)) continue;
    const args = b.arguments;
    const hasArgs = args !== undefined && Object.keys(args).length > 0;
    const cb: CompiledBinding = { dest, key: b.routing_key, words: topicWords(b.routing_key), args, hasArgs };
    // a binding is identified by (source, destination, key, arguments): duplicates collapse
    const dup = src.bindings.some(
      (o) =>
        o.dest.kind === dest.kind &&
        o.dest.name === dest.name &&
        o.key === cb.key &&
        JSON.stringify(o.args ?? {}) === JSON.stringify(args ?? {}),
    );
    if (dup) continue;
    (src.bindings as CompiledBinding[]).push(cb);
    if (src.match === 'direct') {
      const list = src.direct.get(b.routing_key);
      if (list) list.push(dest);
      else src.direct.set(b.routing_key, [dest]);
    }
  }
  // cacheable: every exchange reachable (bindings and alternates) is direct/fanout/topic and not delayed
  const cacheable = new Set<string>();
  const staticX = (x: CompiledExchange): boolean =>
    !x.delayed && (x.match === 'direct' || x.match === 'fanout' || x.match === 'topic');
  for (const x of byName.values()) {
    const seen = new Set<string>([x.name]);
    const work = [x];
    let ok = true;
    while (work.length > 0 && ok) {
      const cur = work.pop() as CompiledExchange;
      if (!staticX(cur)) ok = false;
      const next = cur.bindings.filter((b) => b.dest.kind === 'exchange').map((b) => b.dest.name);
      if (cur.alternate !== undefined) next.push(cur.alternate);
      for (const n of next) {
        const nx = byName.get(n);
        if (nx && !seen.has(n)) {
          seen.add(n);
          work.push(nx);
        }
      }
    }
    if (ok) cacheable.add(x.name);
  }
  cacheable.add('');
  return { exchanges: byName, queues, cacheable };
}
