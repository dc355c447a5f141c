import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// a work queue dead-letters its rejects to a stream (docs streams: append-only, read by offset)
const topo = T.topology(
  T.exchange('dlx', 'fanout'),
  T.queue('work', { dlx: 'dlx' }),
  T.queue('dead', { stream: true }),
  T.bind('dlx', 'dead'),
);
const twoRejected = [S.publish('', 'work', 'm1'), S.publish('', 'work', 'm2')];

describe('a stream in the simulator', () => {
  it('RabbitMQ 3.10 drops an at-most-once dead letter routed to a stream (rabbitmq-server#7846; measured on 3.10.8)', () => {
    const r = run({ topology: topo, consumers: [C.script('work', A.reject)], steps: twoRejected, profile: '3.10' });
    expect(r.left('dead')).toEqual([]);
    expect(r.of('dropped').map((e) => [e.why, e.queue])).toEqual([
      ['stream-dead-letter', 'dead'],
      ['stream-dead-letter', 'dead'],
    ]);
  });

  it('keeps every dead letter with its x-death, in order, with its offset', () => {
    const r = run({ topology: topo, consumers: [C.script('work', A.reject)], steps: twoRejected, profile: '4.3' });
    expect(r.left('dead')).toEqual(['m1', 'm2']);
    const [first, second] = r.observed.final.dead!;
    expect(first!['x-death']).toEqual([
      { queue: 'work', reason: 'rejected', count: 1, exchange: '', 'routing-keys': ['work'] },
    ]);
    expect(first!.headers?.['x-stream-offset']).toBe(0);
    expect(second!.headers?.['x-stream-offset']).toBe(1);
  });

  it('a reader from first gets every message, and its acks remove nothing', () => {
    const reader = C.fromOffset(C.withPrefetch(C.script('dead', A.ack), 10), 'first');
    const r = run({
      topology: topo,
      consumers: [C.script('work', A.reject), reader],
      steps: twoRejected,
      startConsumers: 'after',
      profile: '4.3',
    });
    expect(r.delivered('dead')).toEqual(['m1', 'm2']);
    expect(r.of('acked').filter((e) => e.queue === 'dead')).toHaveLength(2);
    expect(r.left('dead')).toEqual(['m1', 'm2']);
  });

  it('two readers each read the whole log (reading twice gives the same messages)', () => {
    const a = C.fromOffset(C.script('dead', A.ack), 'first');
    const b = C.fromOffset(C.script('dead', A.ack), 'first');
    const r = run({
      topology: topo,
      consumers: [C.script('work', A.reject), a, b],
      steps: twoRejected,
      startConsumers: 'after',
      profile: '4.3',
    });
    const by = (id: string): string[] =>
      r
        .of('delivered')
        .filter((e) => e.consumer === id)
        .map((e) => e.body);
    expect(by(a.id)).toEqual(['m1', 'm2']);
    expect(by(b.id)).toEqual(['m1', 'm2']);
  });

  it('a reader at next (the default) sees only what is written after it attaches', () => {
    const pub = [S.publish('', 'dead', 'old')];
    const r = run({
      topology: T.topology(T.queue('dead', { stream: true })),
      consumers: [C.script('dead', A.ack)],
      steps: pub,
      startConsumers: 'after',
    });
    expect(r.delivered('dead')).toEqual([]);
    const r2 = run({
      topology: T.topology(T.queue('dead', { stream: true })),
      consumers: [C.script('dead', A.ack)],
      steps: pub,
    });
    expect(r2.delivered('dead')).toEqual(['old']);
  });

  it('prefetch bounds a reader: one unacked message at a time', () => {
    const steps = [S.publish('', 's', 'a'), S.publish('', 's', 'b'), S.publish('', 's', 'c')];
    const reader = C.fromOffset(C.script('s', A.ack), 'first');
    const r = run({
      topology: T.topology(T.queue('s', { stream: true })),
      consumers: [reader],
      steps,
      startConsumers: 'after',
    });
    const order = r.events
      .filter((e) => (e.kind === 'delivered' || e.kind === 'acked') && e.queue === 's')
      .map((e) => `${e.kind}:${e.body}`);
    expect(order).toEqual(['delivered:a', 'acked:a', 'delivered:b', 'acked:b', 'delivered:c', 'acked:c']);
  });

  it('a reject on a stream dead-letters nothing and removes nothing', () => {
    const reader = C.fromOffset(C.script('s', A.reject), 'first');
    const r = run({
      topology: T.topology(T.queue('s', { stream: true })),
      consumers: [reader],
      steps: [S.publish('', 's', 'a')],
      startConsumers: 'after',
    });
    expect(r.of('dead-lettered')).toEqual([]);
    expect(r.left('s')).toEqual(['a']);
  });
});
