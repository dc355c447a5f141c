import { describe, expect, it } from 'vitest';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { TraceAccounting } from './accounting.js';
import type { EventInput } from './traceContext.js';

/** event builders for one message */
const ev = (msgId: string) => ({
  published: (exchange: string, origin: 'publisher' | 'consumer' = 'publisher'): EventInput => ({
    kind: 'published',
    msgId,
    body: msgId,
    exchange,
    routingKey: 'k',
    origin: origin === 'publisher' ? { kind: 'publisher', id: 'p' } : { kind: 'consumer', id: 'w' },
    headers: {},
    mandatory: false,
  }),
  routed: (exchange: string, queues: string[]): EventInput => ({
    kind: 'routed',
    msgId,
    body: msgId,
    exchange,
    routingKeys: ['k'],
    queues,
    exchanges: [],
  }),
  enqueued: (queue: string): EventInput => ({ kind: 'enqueued', msgId, body: msgId, queue, depth: 1 }),
  delivered: (queue: string, redelivered = false): EventInput => ({
    kind: 'delivered',
    msgId,
    body: msgId,
    queue,
    consumer: 'w',
    redelivered,
    headers: {},
    routingKey: 'k',
    exchange: 'x',
  }),
  acked: (queue: string): EventInput => ({ kind: 'acked', msgId, body: msgId, queue, consumer: 'w' }),
  rejected: (queue: string): EventInput => ({ kind: 'rejected', msgId, body: msgId, queue, consumer: 'w' }),
  expired: (queue: string): EventInput => ({ kind: 'expired', msgId, body: msgId, queue }),
  deadLettered: (queue: string, reason: 'rejected' | 'expired', exchange: string): EventInput => ({
    kind: 'dead-lettered',
    msgId,
    body: msgId,
    queue,
    reason,
    exchange,
    routingKeys: ['k'],
  }),
  dropped: (why: 'no-route' | 'queue-deleted', queue?: string): EventInput => ({
    kind: 'dropped',
    msgId,
    body: msgId,
    why,
    ...(queue ? { queue } : {}),
  }),
});

function setup(maxHoldMs = 1000) {
  let clock = 0;
  let seq = 0;
  const out: SimEvent[] = [];
  const acc = new TraceAccounting({ now: () => clock, nextSeq: () => ++seq, out: (e) => out.push(e), maxHoldMs });
  const kinds = (msgId = 'm') =>
    out.filter((e) => e.msgId === msgId).map((e) => `${e.kind}${'queue' in e && e.queue ? ` ${e.queue}` : ''}`);
  return { acc, out, kinds, tick: (ms: number) => (clock += ms) };
}

const live = (q: string) => q === 'work' || q === 'wait';

describe('trace accounting', () => {
  it('a reject lost with its channel (broker restart): the redelivery takes it back, the message does not wait at a consumer', () => {
    const { acc, kinds, tick } = setup(500);
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('observer', m.routed('in', ['work']), { start: 'publish' });
    acc.add('observer', m.enqueued('work'));
    acc.add('worker:w', m.delivered('work'));
    // rejected on a channel that died before the reject got out: the broker requeued the delivery
    acc.add('worker:w', m.rejected('work'));
    acc.add('worker:w', m.delivered('work', true));
    acc.add('worker:w', m.rejected('work'));
    // no copy was enqueued for that delivery: it waits out its hold, then takes the lost reject back
    tick(600);
    acc.flush();
    acc.add('observer', m.deadLettered('work', 'rejected', 'parking'));
    acc.add('observer', m.routed('parking', ['parked']), { start: 'dead-letter' });
    acc.add('observer', m.enqueued('parked'));
    expect(kinds()).toEqual([
      'published',
      'routed',
      'enqueued work',
      'delivered work',
      'rejected work',
      'delivered work',
      'rejected work',
      'dead-lettered work',
      'routed',
      'enqueued parked',
    ]);
    expect(acc.waitingFor('m', live)).toBeUndefined();
    expect(acc.fate('m', live)?.kind).toBe('parked');
  });

  it("a reject lost with a closed connection, its redelivery known as such: it goes at once, and the real dead letter that follows is the second reject's", () => {
    const { acc, kinds, tick } = setup(5000);
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('observer', m.routed('in', ['work']), { start: 'publish' });
    acc.add('observer', m.enqueued('work'));
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.rejected('work'));
    // the connection closed before the reject got out; on the new channel the broker hands the message out again
    tick(200);
    acc.add('worker:w', m.delivered('work', true), { afterLostReject: true });
    acc.add('worker:w', m.rejected('work'));
    // the dead letter of that second reject arrives well inside the hold (before: it was paired with the lost reject)
    tick(50);
    acc.add('observer', m.deadLettered('work', 'rejected', 'retry'));
    acc.add('observer', m.routed('retry', ['parked']), { start: 'dead-letter' });
    acc.add('observer', m.enqueued('parked'));
    expect(kinds()).toEqual([
      'published',
      'routed',
      'enqueued work',
      'delivered work',
      'rejected work',
      'delivered work',
      'rejected work',
      'dead-lettered work',
      'routed',
      'enqueued parked',
    ]);
    expect(acc.heldMessages).toBe(0);
    expect(acc.waitingFor('m', live)).toBeUndefined();
    expect(acc.fate('m', live)?.kind).toBe('parked');
  });

  it('holds a worker delivery until the broker copy that put the message in the queue arrives', () => {
    const { acc, kinds } = setup();
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    // the worker got it before the observation of the exchange hop
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.acked('work'));
    expect(kinds()).toEqual(['published']);
    expect(acc.fate('m', live)?.kind).toBe('moving');
    acc.add('observer', m.routed('in', ['work']), { start: 'publish' });
    acc.add('observer', m.enqueued('work'));
    expect(kinds()).toEqual(['published', 'routed', 'enqueued work', 'delivered work', 'acked work']);
    // acked by the worker: not "resting in work"
    expect(acc.fate('m', live)?.kind).toBe('acked');
    expect(acc.resting().size).toBe(0);
    expect(acc.balance(live)).toMatchObject({
      published: 1,
      acked: 1,
      parked: 0,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
  });

  it('orders a retry loop whose dead-letter copies arrive late; seq follows the causal order', () => {
    const { acc, out, kinds } = setup();
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('obs:in', m.routed('in', ['work']), { start: 'publish' });
    acc.add('obs:in', m.enqueued('work'));
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.rejected('work'));
    // second delivery (after the wait) before the observation of both dead-letter hops
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.acked('work'));
    // each observation queue (one per exchange) is its own lane: the copy through 'in' comes first
    acc.add('obs:in', m.expired('wait'));
    acc.add('obs:in', m.deadLettered('wait', 'expired', 'in'));
    acc.add('obs:in', m.routed('in', ['work']), { start: 'dead-letter' });
    acc.add('obs:in', m.enqueued('work'));
    acc.add('obs:dlx', m.deadLettered('work', 'rejected', 'dlx'));
    acc.add('obs:dlx', m.routed('dlx', ['wait']), { start: 'dead-letter' });
    acc.add('obs:dlx', m.enqueued('wait'));
    expect(kinds()).toEqual([
      'published',
      'routed',
      'enqueued work',
      'delivered work',
      'rejected work',
      'dead-lettered work',
      'routed',
      'enqueued wait',
      // the expiry waited for the copy to be in 'wait' (another lane)
      'expired wait',
      'dead-lettered wait',
      'routed',
      'enqueued work',
      'delivered work',
      'acked work',
    ]);
    expect(out.map((e) => e.seq)).toEqual(out.map((_, i) => i + 1));
    expect(acc.balance(live)).toMatchObject({ acked: 1, balanced: true });
  });
});

describe('trace accounting: the balance and what it waits for', () => {
  it('counts each published message once: acked, parked, in flight, dropped', () => {
    const { acc } = setup();
    const [a, p, f, d] = ['a', 'p', 'f', 'd'].map(ev) as ReturnType<typeof ev>[];
    for (const m of [a!, p!, f!, d!]) acc.add('publisher', m.published('in'));
    for (const [m, q] of [
      [a!, 'work'],
      [p!, 'parking'],
      [f!, 'wait'],
    ] as const) {
      acc.add('observer', m.routed('in', [q]), { start: 'publish' });
      acc.add('observer', m.enqueued(q));
    }
    acc.add('worker:w', a!.delivered('work'));
    acc.add('worker:w', a!.acked('work'));
    acc.add('observer', d!.routed('in', []), { start: 'publish' });
    acc.add('observer', d!.dropped('no-route'));
    expect(acc.balance(live)).toEqual({
      published: 4,
      acked: 1,
      parked: 1,
      inFlight: 1,
      dropped: 1,
      unaccounted: [],
      balanced: true,
    });
    expect(Object.fromEntries(acc.resting())).toEqual({ parking: 1, wait: 1 });
    expect(acc.waitingFor('f', live)).toMatch(/waits in 'wait'/);
    expect(acc.waitingFor('p', live)).toBeUndefined();
  });

  it('a copy that was published but never routed is in flight, not acked', () => {
    const { acc } = setup();
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('observer', m.routed('in', ['work']), { start: 'publish' });
    acc.add('observer', m.enqueued('work'));
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.published('out', 'consumer'));
    acc.add('worker:w', m.acked('work'));
    expect(acc.fate('m', live)?.kind).toBe('moving');
    acc.add('observer', m.routed('out', []), { start: 'publish' });
    acc.add('observer', m.dropped('no-route'));
    expect(acc.fate('m', live)?.kind).toBe('dropped');
  });

  it('a held event goes out after maxHoldMs when its cause is never seen (counted)', () => {
    const { acc, kinds, tick } = setup(500);
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('worker:w', m.delivered('work'));
    acc.add('worker:w', m.acked('work'));
    tick(400);
    acc.flush();
    expect(kinds()).toEqual(['published']);
    tick(200);
    acc.flush();
    expect(kinds()).toEqual(['published', 'delivered work', 'acked work']);
    expect(acc.forcedOut).toBe(1);
    expect(acc.heldMessages).toBe(0);
    // the late cause settles what went out before it: acked, resting nowhere
    acc.add('observer', m.routed('in', ['work']), { start: 'publish' });
    acc.add('observer', m.enqueued('work'));
    expect(acc.fate('m', live)?.kind).toBe('acked');
    expect(acc.resting().size).toBe(0);
    expect(acc.waitingFor('m', live)).toBeUndefined();
  });

  it('events without a message (depth samples) go straight out', () => {
    const { acc, out } = setup();
    acc.add('sampler', { kind: 'depth', msgId: '', body: '', queue: 'work', ready: 3, unacked: 0 });
    expect(out).toHaveLength(1);
    expect(acc.balance(live).published).toBe(0);
  });

  it('messages in a deleted queue are dropped', () => {
    const { acc } = setup();
    const m = ev('m');
    acc.add('publisher', m.published('in'));
    acc.add('observer', m.routed('in', ['wait']), { start: 'publish' });
    acc.add('observer', m.enqueued('wait'));
    expect(acc.messagesIn('wait')).toEqual([{ msgId: 'm', copies: 1 }]);
    acc.add('broker', m.dropped('queue-deleted', 'wait'));
    expect(acc.fate('m', live)?.kind).toBe('dropped');
  });
});
