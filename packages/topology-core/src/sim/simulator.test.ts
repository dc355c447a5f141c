import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';
import { Simulator } from './simulator.js';
import { simulate } from './simulate.js';

const work = T.topology(
  T.exchange('x'),
  T.queue('work', { dlx: 'x', dlrk: 'retry' }),
  T.queue('retry', { ttl: 1000, dlx: 'x', dlrk: 'work' }),
  T.bind('x', 'work', 'work'),
  T.bind('x', 'retry', 'retry'),
);

describe('Simulator', () => {
  it('the attempt Counter counts past 127 deliveries and over more than 4 consumers (packed counts spill into an array)', () => {
    const rules = [
      { when: { kind: 'lt' as const, counter: { kind: 'attempt' as const }, value: 130 }, then: A.requeue },
      { then: A.reject },
    ];
    const r = run({
      topology: T.topology(T.queue('q')),
      consumers: [C.worker('q', rules, { failure: { kind: 'always' } })],
      steps: [S.publish('', 'q', 'm')],
    });
    expect(r.delivered('q')).toHaveLength(130);
    expect(r.of('rejected')).toHaveLength(1);
    // six consumers on one queue, round-robin: each sees the message 3 times before its own 3rd-attempt rule rejects it
    const three = [
      { when: { kind: 'lt' as const, counter: { kind: 'attempt' as const }, value: 3 }, then: A.requeue },
      { then: A.reject },
    ];
    const r6 = run({
      topology: T.topology(T.queue('q')),
      consumers: Array.from({ length: 6 }, () => C.worker('q', three, { failure: { kind: 'always' } })),
      steps: [S.publish('', 'q', 'm')],
    });
    expect(r6.delivered('q')).toHaveLength(13);
  });

  it('failFirst counts processing attempts per message across workers (in-process retries included); the attempt Counter stays per consumer', () => {
    const topo = T.topology(
      T.exchange('x'),
      T.queue('a', { dlx: 'x', dlrk: 'b' }),
      T.queue('b', { dlx: 'x', dlrk: 'parked' }),
      T.queue('parked'),
      T.bind('x', 'a', 'a'),
      T.bind('x', 'b', 'b'),
      T.bind('x', 'parked', 'parked'),
    );
    const inProcess = {
      kind: 'retryInProcess' as const,
      maxAttempts: 2,
      backoff: { initialMs: 100, multiplier: 1, maxMs: 100 },
      recover: A.reject,
    };
    const failure = { kind: 'failFirst' as const, n: 3 };
    // b's rule reads the per-consumer attempt Counter: 1 on b's first delivery, though it is the message's 3rd processing attempt
    const b = C.worker(
      'b',
      [{ when: { kind: 'lt', counter: { kind: 'attempt' }, value: 2 }, then: A.requeue }, { then: A.reject }],
      { failure },
    );
    const r = run({
      topology: topo,
      consumers: [C.worker('a', [{ then: inProcess }], { failure }), b],
      steps: [S.publish('x', 'a', 'm')],
    });
    expect(r.of('processed').map((e) => [e.queue, e.attempt, e.ok])).toEqual([
      ['a', 1, false],
      ['a', 2, false],
      ['b', 3, false],
      ['b', 4, true],
    ]);
    expect(r.of('requeued').map((e) => e.queue)).toEqual(['b']);
    expect(r.of('acked').map((e) => e.queue)).toEqual(['b']);
  });

  it('is deterministic per seed (percent failure model)', () => {
    const consumer = C.worker(
      'work',
      [
        {
          when: { kind: 'lt' as const, counter: { kind: 'deathCount' as const, queue: 'work' }, value: 3 },
          then: A.reject,
        },
        { then: A.ack },
      ],
      { failure: { kind: 'percent', percent: 50 } },
    );
    const input = (seed: number) => ({
      topology: work,
      consumers: [consumer],
      steps: Array.from({ length: 50 }, (_, i) => S.publish('x', 'work', `m${i}`)),
      seed,
    });
    const a = simulate(input(1));
    const b = simulate(input(1));
    const c = simulate(input(2));
    expect(a.events).toEqual(b.events);
    expect(a.events.filter((e) => e.kind === 'processed').map((e) => e.kind === 'processed' && e.ok)).not.toEqual(
      c.events.filter((e) => e.kind === 'processed').map((e) => e.kind === 'processed' && e.ok),
    );
  });

  it('simulates hours of backoff in virtual time; events are in (t, seq) order', () => {
    const slow = T.topology(
      T.exchange('x'),
      T.queue('work', { dlx: 'x', dlrk: 'retry' }),
      T.queue('retry', { ttl: 3_600_000, dlx: 'x', dlrk: 'work' }),
      T.bind('x', 'work', 'work'),
      T.bind('x', 'retry', 'retry'),
    );
    const r = run({
      topology: slow,
      consumers: [C.worker('work', [{ then: A.reject }], { failure: { kind: 'failFirst', n: 3 } })],
      steps: [S.publish('x', 'work', 'm')],
    });
    expect(r.of('delivered').map((e) => e.t)).toEqual([0, 3_600_000, 7_200_000, 10_800_000]);
    expect(r.of('acked')).toHaveLength(1);
    for (let i = 1; i < r.events.length; i++) {
      const p = r.events[i - 1]!;
      const e = r.events[i]!;
      expect(e.t > p.t || (e.t === p.t && e.seq > p.seq)).toBe(true);
    }
  });

  it('next() steps one entry at a time; runUntil(t) stops at t; depths() snapshots queues', () => {
    const sim = new Simulator({
      topology: work,
      consumers: [C.worker('work', [{ then: A.reject }], { failure: { kind: 'failFirst', n: 1 } })],
      steps: [S.publish('x', 'work', 'm')],
    });
    const first = sim.next();
    expect(first?.map((e) => e.kind)).toEqual(['published', 'routed', 'enqueued', 'delivered']);
    sim.runUntil(500);
    expect(sim.now).toBe(500);
    expect(sim.depths()['retry']).toEqual({ ready: 1, unacked: 0 });
    const rest: string[] = [];
    for (let ev = sim.next(); ev; ev = sim.next()) rest.push(...ev.map((e) => e.kind));
    expect(rest).toContain('acked');
    expect(sim.done).toBe(true);
    expect(sim.next()).toBeUndefined();
  });

  it('prefetch and processingMs: two deliveries at once with prefetch 2, the third after the first finishes', () => {
    const r = run({
      topology: T.topology(T.queue('q')),
      consumers: [C.worker('q', [], { prefetch: 2, processingMs: 100 })],
      steps: [S.publish('', 'q', 'a'), S.publish('', 'q', 'b'), S.publish('', 'q', 'c')],
    });
    expect(r.of('delivered').map((e) => [e.body, e.t])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 100],
    ]);
    expect(r.of('acked').map((e) => e.t)).toEqual([100, 100, 200]);
  });

  it('prefetch 0 is unlimited (basic.qos)', () => {
    const r = run({
      topology: T.topology(T.queue('q')),
      consumers: [C.worker('q', [], { prefetch: 0, processingMs: 100 })],
      steps: [S.publish('', 'q', 'a'), S.publish('', 'q', 'b'), S.publish('', 'q', 'c')],
    });
    expect(r.of('delivered').map((e) => e.t)).toEqual([0, 0, 0]);
  });

  it('two consumers on one queue share it round-robin', () => {
    const a = C.script('q', A.ack);
    const b = C.script('q', A.ack);
    const r = run({
      topology: T.topology(T.queue('q')),
      consumers: [a, b],
      steps: [S.publish('', 'q', '1'), S.publish('', 'q', '2'), S.publish('', 'q', '3'), S.publish('', 'q', '4')],
      startConsumers: 'after',
    });
    expect(r.of('delivered').map((e) => e.consumer)).toEqual([a.id, b.id, a.id, b.id]);
  });

  it('retryInProcess holds the message unacked for the backoff, then recovers', () => {
    const r = run({
      topology: T.topology(T.queue('q', { dlx: '', dlrk: 'dead' }), T.queue('dead')),
      consumers: [
        C.worker(
          'q',
          [
            {
              then: {
                kind: 'retryInProcess',
                maxAttempts: 3,
                backoff: { initialMs: 100, multiplier: 2, maxMs: 1000 },
                recover: A.reject,
              },
            },
          ],
          { failure: { kind: 'always' } },
        ),
      ],
      steps: [S.publish('', 'q', 'm')],
    });
    expect(r.of('processed').map((e) => [e.t, e.attempt, e.ok])).toEqual([
      [0, 1, false],
      [100, 2, false],
      [300, 3, false],
    ]);
    expect(r.of('delivered')).toHaveLength(1);
    expect(r.of('rejected').map((e) => e.t)).toEqual([300]);
    expect(r.left('dead')).toEqual(['m']);
  });

  it('retryInProcess succeeds mid-way: acked without redelivery', () => {
    const r = run({
      topology: T.topology(T.queue('q')),
      consumers: [
        C.worker(
          'q',
          [
            {
              then: {
                kind: 'retryInProcess',
                maxAttempts: 5,
                backoff: { initialMs: 10, multiplier: 1, maxMs: 10 },
                recover: A.reject,
              },
            },
          ],
          { failure: { kind: 'failFirst', n: 2 } },
        ),
      ],
      steps: [S.publish('', 'q', 'm')],
    });
    expect(r.of('acked').map((e) => e.t)).toEqual([20]);
  });

  it('republish: headers copied and merged, expiration set, x-death kept, routing key from a header; then ack', () => {
    const topo = T.topology(
      T.exchange('x'),
      T.queue('q', { dlx: 'x', dlrk: 'err' }),
      T.queue('err'),
      T.queue('wait', { dlx: '' }),
      T.bind('x', 'err', 'err'),
      T.bind('x', 'wait', 'wait'),
    );
    const r = run({
      topology: topo,
      consumers: [
        C.script('q', A.reject, A.ack),
        C.script(
          'err',
          A.republish('x', {
            routingKey: 'wait',
            headers: { 'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 } },
            expiration: { kind: 'curve', values: [50, 500], by: { kind: 'deathCount', queue: 'q' } },
          }),
        ),
        C.script('wait', A.republish('', { routingKeyFromHeader: 'x-first-death-queue' })),
      ],
      steps: [S.publish('', 'q', 'm')],
    });
    // back in q through x-first-death-queue, then acked
    expect(r.delivered('q')).toEqual(['m', 'm']);
    // the copy in wait carries expiration 50 and x-retries 1 when delivered
    const w = r.observed.deliveries['wait']?.[0];
    expect(w?.expiration).toBe('50');
    expect(w?.headers?.['x-retries']).toBe(1);
    expect(w?.['x-death']?.[0]?.queue).toBe('q');
    expect(r.of('published').filter((e) => e.origin.kind === 'consumer')).toHaveLength(2);
  });

  it('maxEvents and maxTimeMs truncate a run that never ends', () => {
    const loop = T.topology(T.queue('q', { dlx: '' }));
    const r = run({
      topology: loop,
      consumers: [C.script('q', A.reject)],
      steps: [S.publish('', 'q', 'm')],
      maxEvents: 500,
    });
    expect(r.truncated).toBe(true);
    const t = run({
      topology: work,
      consumers: [C.worker('work', [{ then: A.reject }], { failure: { kind: 'always' } })],
      steps: [S.publish('x', 'work', 'm')],
      maxTimeMs: 5000,
    });
    expect(t.truncated).toBe(true);
    expect(t.endTime).toBeLessThanOrEqual(5000);
  });

  it('retainEvents:false keeps no list but still calls onEvent and counts hops', () => {
    const seen: string[] = [];
    const r = simulate({
      topology: work,
      consumers: [],
      steps: [S.publish('x', 'work', 'm')],
      retainEvents: false,
      onEvent: (e) => seen.push(e.kind),
    });
    expect(r.events).toEqual([]);
    expect(seen).toEqual(['published', 'routed', 'enqueued']);
    // hops: exchange x, queue work
    expect(r.stats.hops).toBe(2);
  });

  it('simulate(): final is built on first read and serialises like a plain property', () => {
    const r = simulate({ topology: T.topology(T.queue('q')), consumers: [], steps: [S.publish('', 'q', 'a')] });
    expect(r.final['q']?.map((m) => m.body)).toEqual(['a']);
    expect(JSON.parse(JSON.stringify(r)).final.q[0].body).toBe('a');
    expect({ ...r }.final['q']).toHaveLength(1);
  });

  it('emitDepth reports queue depth changes', () => {
    const r = run({ topology: T.topology(T.queue('q')), steps: [S.publish('', 'q', 'a')], emitDepth: true });
    expect(r.of('depth').map((e) => [e.queue, e.ready, e.unacked])).toEqual([['q', 1, 0]]);
  });
});
