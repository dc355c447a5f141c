import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';
import { Simulator } from './simulator.js';

// rabbitmq-semantics.md §2 "TTL" and §6 items 10-15
const stdDL = (o: Parameters<typeof T.queue>[1] = {}) => [
  T.exchange('X'),
  T.queue('Q', { dlx: 'X', dlrk: 'D', ...o }),
  T.queue('D'),
  T.bind('X', 'D', 'D'),
];

describe('TTL', () => {
  it('item 10/11: queue TTL dead-letters with reason expired and no original-expiration', () => {
    const r = run({ topology: T.topology(...stdDL({ ttl: 1 })), steps: [S.publish('', 'Q', 'm1')] });
    expect(r.observed.final['D']).toEqual([
      {
        body: 'm1',
        'x-death': [{ queue: 'Q', reason: 'expired', count: 1, exchange: '', 'routing-keys': ['Q'] }],
        headers: { 'x-first-death-exchange': '', 'x-first-death-queue': 'Q', 'x-first-death-reason': 'expired' },
      },
    ]);
  });

  it('item 12: per-message expiration: original-expiration recorded, expiration removed', () => {
    const r = run({
      topology: T.topology(...stdDL()),
      steps: [S.publish('', 'Q', 'm1', { expiration: '1' }), S.publish('', 'Q', 'm2')],
    });
    expect(r.left('D')).toEqual(['m1']);
    expect(r.observed.final['D']?.[0]?.['x-death']?.[0]?.['original-expiration']).toBe('1');
    expect(r.observed.final['D']?.[0]?.expiration).toBeUndefined();
    expect(r.left('Q')).toEqual(['m2']);
  });

  it('effective TTL is the lower of queue and message TTL (rabbit_amqqueue_process.erl L999-1007)', () => {
    const r = run({
      topology: T.topology(...stdDL({ ttl: 1000 })),
      steps: [S.publish('', 'Q', 'a', { expiration: '100' }), S.publish('', 'Q', 'b', { expiration: '5000' })],
    });
    expect(r.of('expired').map((e) => [e.body, e.t])).toEqual([
      ['a', 100],
      ['b', 1000],
    ]);
  });

  it('item 13: TTL 0 without DLX and no consumer discards; with a consumer it is delivered', () => {
    const topo = T.topology(T.queue('Q', { ttl: 0 }));
    const none = run({ topology: topo, steps: [S.publish('', 'Q', 'm')] });
    expect(none.delivered('Q')).toEqual([]);
    expect(none.left('Q')).toEqual([]);
    expect(none.of('dropped').map((e) => e.why)).toEqual(['no-dlx']);
    const withConsumer = run({ topology: topo, consumers: [C.script('Q', A.ack)], steps: [S.publish('', 'Q', 'm')] });
    expect(withConsumer.delivered('Q')).toEqual(['m']);
  });

  it('item 14: expiry only at the head: b (100 ms) waits behind a (10 s)', () => {
    const sim = new Simulator({
      topology: T.topology(...stdDL()),
      consumers: [],
      steps: [S.publish('', 'Q', 'a', { expiration: '10000' }), S.publish('', 'Q', 'b', { expiration: '100' })],
    });
    sim.runUntil(5000);
    expect(sim.queueContents('D')).toEqual([]);
    expect(sim.queueContents('Q').map((m) => m.body)).toEqual(['a', 'b']);
    const r = sim.run();
    expect(r.final['D']?.map((m) => m.body)).toEqual(['a', 'b']);
    expect(r.events.filter((e) => e.kind === 'expired').map((e) => e.t)).toEqual([10000, 10000]);
  });

  it('item 15: 1000 messages with expiration "0" and no DLX leave the queue empty', () => {
    const steps = Array.from({ length: 1000 }, (_, i) => S.publish('', 'Q', `m${i}`, { expiration: '0' }));
    const r = run({ topology: T.topology(T.queue('Q')), steps });
    expect(r.left('Q')).toEqual([]);
    expect(r.of('dropped')).toHaveLength(1000);
  });

  it('a requeued message keeps its original expiry', () => {
    // consumer holds m for 300 ms, then requeues; TTL 200 has passed: it expires at once, never redelivered
    const r = run({
      topology: T.topology(...stdDL({ ttl: 200 })),
      consumers: [C.worker('Q', [{ then: A.requeue }], { failure: { kind: 'always' }, processingMs: 300 })],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.delivered('Q')).toEqual(['m']);
    expect(r.left('D')).toEqual(['m']);
    expect(r.of('expired')[0]?.t).toBe(300);
  });
});
