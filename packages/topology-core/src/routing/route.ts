/**
 * One publish through the exchange graph, as rabbit_exchange:route/2 does it
 * (srv@v3.10.8 rabbit_exchange.erl L411-475): the default exchange routes by queue name
 * (no alternate exchange, no exchange bindings); otherwise every exchange reached is visited
 * once, an exchange whose own routing finds no destination hands the message to its
 * alternate exchange, and the union of queues is de-duplicated.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { CompiledBinding, CompiledExchange, Dest, ExchangeIndex } from './exchangeIndex.js';
import { headersMatch } from './headersMatcher.js';
import { topicWords, topicWordsMatch } from './topicMatcher.js';
import { routeRadlx } from './radlx.js';
import { delayOf } from './delayedExchange.js';

export interface RouteHop {
  readonly exchange: string;
  readonly queues: readonly string[];
  readonly exchanges: readonly string[];
  readonly alternateOf?: string;
}

export interface RouteResult {
  /** target queues, de-duplicated and sorted (as lists:usort) */
  readonly queues: readonly string[];
  /** one per exchange visited, in visiting order */
  readonly hops: readonly RouteHop[];
  /** delayed exchanges that took the message to hold it */
  readonly delayed: readonly { readonly exchange: string; readonly delayMs: number }[];
  /** the first exchange does not exist */
  readonly missingExchange: boolean;
}

export interface RouteMessage {
  readonly routingKeys: readonly string[];
  readonly headers: { readonly [k: string]: AmqpValue };
  readonly xDeath: readonly XDeathEntry[] | undefined;
}

export interface RouteOptions {
  /** 4.x strict header comparison */
  readonly strictHeaders: boolean;
  /** the delay has run out (the plugin rewrote x-delay): route through delayed exchanges at once */
  readonly delayDone: boolean;
}

const EMPTY: readonly string[] = [];

function typeRoute(x: CompiledExchange, m: RouteMessage, strict: boolean): Dest[] {
  const out: Dest[] = [];
  switch (x.match) {
    case 'fanout':
      for (const b of x.bindings) out.push(b.dest);
      return out;
    case 'direct':
      for (const rk of m.routingKeys) {
        const d = x.direct.get(rk);
        if (d) for (const dest of d) out.push(dest);
      }
      return out;
    case 'topic':
      for (const rk of m.routingKeys) {
        const w = topicWords(rk);
        for (const b of x.bindings) if (topicWordsMatch(b.words, w)) out.push(b.dest);
      }
      return out;
    case 'headers': {
      const h = m.xDeath ? { ...m.headers, 'x-death': m.xDeath as unknown as AmqpValue } : m.headers;
      for (const b of x.bindings) if (headersMatch(b.args, h, strict)) out.push(b.dest);
      return out;
    }
    case 'radlx':
      return routeRadlx(x, m.routingKeys, m.headers, m.xDeath);
  }
}

export function route(index: ExchangeIndex, exchange: string, m: RouteMessage, opts: RouteOptions): RouteResult {
  if (exchange === '') {
    const qs: string[] = [];
    for (const rk of m.routingKeys) if (index.queues.has(rk) && !qs.includes(rk)) qs.push(rk);
    qs.sort();
    return { queues: qs, hops: [{ exchange: '', queues: qs, exchanges: EMPTY }], delayed: [], missingExchange: false };
  }
  const start = index.exchanges.get(exchange);
  if (!start) return { queues: EMPTY, hops: [], delayed: [], missingExchange: true };
  const seen = new Set<string>([exchange]);
  const alternateOf = new Map<string, string>();
  const work: CompiledExchange[] = [start];
  const queues = new Set<string>();
  const hops: RouteHop[] = [];
  const delayed: { exchange: string; delayMs: number }[] = [];
  while (work.length > 0) {
    const x = work.pop() as CompiledExchange;
    let dests: Dest[];
    const delay = x.delayed && !opts.delayDone ? delayOf(m.headers) : undefined;
    if (delay !== undefined) {
      // held: routes to nothing now (so mandatory returns and the AE gets a copy at once)
      delayed.push({ exchange: x.name, delayMs: delay });
      dests = [];
    } else dests = typeRoute(x, m, opts.strictHeaders);
    const hopQueues: string[] = [];
    const hopExchanges: string[] = [];
    if (dests.length === 0 && x.alternate !== undefined) {
      const ae = index.exchanges.get(x.alternate);
      if (ae && !seen.has(ae.name)) {
        seen.add(ae.name);
        alternateOf.set(ae.name, x.name);
        work.push(ae);
        hopExchanges.push(ae.name);
      }
    }
    for (const d of dests) {
      if (d.kind === 'queue') {
        if (!hopQueues.includes(d.name)) hopQueues.push(d.name);
        queues.add(d.name);
      } else {
        if (!hopExchanges.includes(d.name)) hopExchanges.push(d.name);
        const nx = index.exchanges.get(d.name);
        if (nx && !seen.has(d.name)) {
          seen.add(d.name);
          work.push(nx);
        }
      }
    }
    const ao = alternateOf.get(x.name);
    hops.push(
      ao === undefined
        ? { exchange: x.name, queues: hopQueues, exchanges: hopExchanges }
        : { exchange: x.name, queues: hopQueues, exchanges: hopExchanges, alternateOf: ao },
    );
  }
  return { queues: [...queues].sort(), hops, delayed, missingExchange: false };
}

/** route with a per-exchange cache for exchanges whose result depends only on the keys */
export class Router {
  private cache = new Map<string, Map<string, RouteResult>>();
  constructor(readonly index: ExchangeIndex) {}

  /** a queue was deleted: forget it and every binding to it */
  deleteQueue(name: string): void {
    this.index.queues.delete(name);
    for (const x of this.index.exchanges.values()) {
      const keep = x.bindings.filter((b) => !(b.dest.kind === 'queue' && b.dest.name === name));
      if (keep.length === x.bindings.length) continue;
      (x.bindings as CompiledBinding[]).length = 0;
      (x.bindings as CompiledBinding[]).push(...keep);
      for (const [k, list] of x.direct) {
        const l = list.filter((d) => !(d.kind === 'queue' && d.name === name));
        if (l.length === 0) x.direct.delete(k);
        else x.direct.set(k, l);
      }
    }
    this.cache.clear();
  }

  route(exchange: string, m: RouteMessage, opts: RouteOptions): RouteResult {
    if (!this.index.cacheable.has(exchange)) return route(this.index, exchange, m, opts);
    let c = this.cache.get(exchange);
    if (!c) {
      c = new Map();
      this.cache.set(exchange, c);
    }
    const key = m.routingKeys.length === 1 ? (m.routingKeys[0] as string) : m.routingKeys.join('\u0000') + '\u0001';
    let r = c.get(key);
    if (!r) {
      r = route(this.index, exchange, m, opts);
      if (c.size < 10000) c.set(key, r);
    }
    return r;
  }
}
