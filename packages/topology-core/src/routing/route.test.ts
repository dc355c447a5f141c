import { describe, expect, it } from 'vitest';
import { T } from '../../testing/builders.js';
import { compileExchanges } from './exchangeIndex.js';
import { route, type RouteMessage } from './route.js';

const msg = (routingKeys: string[], headers: Record<string, string | number | null> = {}): RouteMessage => ({
  routingKeys,
  headers,
  xDeath: undefined,
});
const opts = { strictHeaders: false, delayDone: false };

// srv@v3.10.8 rabbit_exchange.erl L411-475 (rabbitmq-semantics.md §3)
describe('route', () => {
  it('item 49: an exchange with no match hands the message to its alternate exchange', () => {
    const idx = compileExchanges(
      T.topology(
        T.exchange('my-direct', 'direct', { ae: 'my-ae' }),
        T.exchange('my-ae', 'fanout'),
        T.queue('Q'),
        T.queue('Q_unrouted'),
        T.bind('my-direct', 'Q', 'key1'),
        T.bind('my-ae', 'Q_unrouted'),
      ),
    );
    expect(route(idx, 'my-direct', msg(['key1']), opts).queues).toEqual(['Q']);
    const r = route(idx, 'my-direct', msg(['key2']), opts);
    expect(r.queues).toEqual(['Q_unrouted']);
    expect(r.hops.map((h) => [h.exchange, h.alternateOf])).toEqual([
      ['my-direct', undefined],
      ['my-ae', 'my-direct'],
    ]);
  });

  it('alternate exchanges chain, each exchange visited once (a loop ends)', () => {
    const idx = compileExchanges(
      T.topology(T.exchange('a', 'direct', { ae: 'b' }), T.exchange('b', 'direct', { ae: 'a' }), T.queue('q')),
    );
    const r = route(idx, 'a', msg(['k']), opts);
    expect(r.queues).toEqual([]);
    expect(r.hops.map((h) => h.exchange)).toEqual(['a', 'b']);
  });

  it('exchange-to-exchange bindings count as destinations (no AE) and de-duplicate queues', () => {
    const idx = compileExchanges(
      T.topology(
        T.exchange('front', 'topic', { ae: 'ae' }),
        T.exchange('ae', 'fanout'),
        T.exchange('inner', 'direct'),
        T.queue('q'),
        T.queue('parked'),
        T.bindX('front', 'inner', 'a.#'),
        T.bind('front', 'q', '#'),
        T.bind('inner', 'q', 'a.b'),
        T.bind('ae', 'parked'),
      ),
    );
    const r = route(idx, 'front', msg(['a.b']), opts);
    expect(r.queues).toEqual(['q']);
    expect(r.hops.map((h) => h.exchange).sort()).toEqual(['front', 'inner']);
    // an e2e destination alone is enough to skip the AE even when it routes nowhere
    expect(route(idx, 'front', msg(['a.z']), opts).queues).toEqual(['q']);
  });

  it('the default exchange routes by queue name, no AE; a missing queue is unroutable', () => {
    const idx = compileExchanges(T.topology(T.queue('q1'), T.queue('q2')));
    expect(route(idx, '', msg(['q2', 'q1', 'nope']), opts).queues).toEqual(['q1', 'q2']);
    expect(route(idx, '', msg(['nope']), opts).queues).toEqual([]);
  });

  it('every routing key (RK + CC + BCC) is routed and queues are de-duplicated', () => {
    const idx = compileExchanges(
      T.topology(
        T.exchange('x'),
        T.queue('a'),
        T.queue('b'),
        T.bind('x', 'a', 'k1'),
        T.bind('x', 'b', 'k2'),
        T.bind('x', 'a', 'k3'),
      ),
    );
    expect(route(idx, 'x', msg(['k1', 'k2', 'k3']), opts).queues).toEqual(['a', 'b']);
  });

  it('a missing exchange is reported', () => {
    const idx = compileExchanges(T.topology(T.queue('q')));
    expect(route(idx, 'nope', msg(['q']), opts).missingExchange).toBe(true);
  });

  it('plugins: an exchange type that is not available does not exist', () => {
    const topo = T.topology(
      T.exchange('d', 'x-delayed-message', { delayedType: 'direct' }),
      T.queue('q'),
      T.bind('d', 'q', 'k'),
    );
    expect(compileExchanges(topo, []).exchanges.has('d')).toBe(false);
    expect(compileExchanges(topo).exchanges.has('d')).toBe(true);
  });
});
