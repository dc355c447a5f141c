import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// rabbitmq-semantics.md §2 "QQ delivery-limit", §5 "Requeue position", §6 items 3, 7, 7b, 20, 21
const three = [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2'), S.publish('', 'Q', 'm3')];
const requeueOnce = () => C.script('Q', A.requeue, A.ack);

describe('requeue position', () => {
  it('item 7 (classic): a requeued message goes back to its original position, redelivered', () => {
    const r = run({
      topology: T.topology(T.queue('Q')),
      consumers: [requeueOnce()],
      steps: three,
      startConsumers: 'after',
    });
    expect(r.delivered('Q')).toEqual(['m1', 'm1', 'm2', 'm2', 'm3', 'm3']);
    expect(r.of('delivered').map((e) => e.redelivered)).toEqual([false, true, false, true, false, true]);
  });

  it('item 7 (classic, prefetch 3): requeue of the first returns it ahead of the others', () => {
    // all three delivered at once; m1 requeued -> it is the only ready message and comes back first
    const r = run({
      topology: T.topology(T.queue('Q')),
      consumers: [C.withPrefetch(C.script('Q', A.requeue, A.ack), 3)],
      steps: three,
      startConsumers: 'after',
    });
    expect(r.delivered('Q').slice(0, 4)).toEqual(['m1', 'm2', 'm3', 'm1']);
  });

  it('item 7b: a 3.10 quorum queue without a delivery limit requeues to the back', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { quorum: true })),
      consumers: [C.script('Q', A.requeue, A.ack)],
      steps: three,
      startConsumers: 'after',
    });
    // m1 goes behind m2, m3; each of them is requeued once too
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm3', 'm1', 'm2', 'm3']);
    expect(r.observed.deliveries['Q']?.[3]).toEqual({
      body: 'm1',
      redelivered: true,
      headers: { 'x-delivery-count': 1 },
    });
  });

  it('item 7 (quorum with a limit): returns are served before other ready messages', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { quorum: true, deliveryLimit: 50 })),
      consumers: [C.script('Q', A.requeue, A.ack)],
      steps: three,
      startConsumers: 'after',
    });
    expect(r.delivered('Q')).toEqual(['m1', 'm1', 'm2', 'm2', 'm3', 'm3']);
  });
});

describe('quorum delivery limit', () => {
  const topo = (limit: number | undefined) =>
    T.topology(
      T.exchange('dlx', 'fanout'),
      T.queue('Q', { quorum: true, dlx: 'dlx', ...(limit !== undefined ? { deliveryLimit: limit } : {}) }),
      T.queue('dead'),
      T.bind('dlx', 'dead'),
    );

  it('item 20: x-delivery-limit 0: the first requeue dead-letters with reason delivery_limit', () => {
    const r = run({ topology: topo(0), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')] });
    expect(r.delivered('Q')).toEqual(['m']);
    expect(r.observed.final['dead']).toEqual([
      {
        body: 'm',
        'x-death': [{ queue: 'Q', reason: 'delivery_limit', count: 1, exchange: '', 'routing-keys': ['Q'] }],
        headers: { 'x-first-death-exchange': '', 'x-first-death-queue': 'Q', 'x-first-death-reason': 'delivery_limit' },
      },
    ]);
  });

  it('item 21: limit 2: delivered 3 times with x-delivery-count 1 and 2, then dead-lettered', () => {
    const r = run({ topology: topo(2), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')] });
    expect(r.observed.deliveries['Q']?.map((d) => d.headers?.['x-delivery-count'])).toEqual([undefined, 1, 2]);
    expect(r.left('dead')).toEqual(['m']);
  });

  it('3.10 has no default limit: a quorum queue requeues forever (run stops at maxEvents)', () => {
    const r = run({
      topology: topo(undefined),
      consumers: [C.script('Q', A.requeue)],
      steps: [S.publish('', 'Q', 'm')],
      maxEvents: 2000,
    });
    expect(r.truncated).toBe(true);
    expect(r.left('dead')).toEqual([]);
  });

  it('4.x: default delivery limit 20 (srv@v4.0.9 rabbit_quorum_queue.erl L111, L332-345; RN 4.0.1)', () => {
    const r = run({
      topology: topo(undefined),
      consumers: [C.script('Q', A.requeue)],
      steps: [S.publish('', 'Q', 'm')],
      profile: '4.x',
    });
    expect(r.delivered('Q')).toHaveLength(21);
    expect(r.left('dead')).toEqual(['m']);
  });

  it('4.x: x-delivery-limit -1 disables the limit (srv@v4.0.9 rabbit_quorum_queue.erl L371-375)', () => {
    const r = run({
      topology: topo(-1),
      consumers: [C.script('Q', A.requeue)],
      steps: [S.publish('', 'Q', 'm')],
      profile: '4.x',
      maxEvents: 2000,
    });
    expect(r.truncated).toBe(true);
  });

  // rabbitmq-website docs/quorum-queues/index.md, "When is delivery count incremented?": basic.nack
  // increments acquired-count only, basic.reject both; since 4.3 the limit is evaluated on delivery-count
  const v43 = { profile: '4.x' as const, profileOptions: { v43: true } };
  const rejectRequeue = { kind: 'requeue' as const, via: 'reject' as const };

  it('4.3 option: basic.reject requeue=true counts toward the limit (x-delivery-count and x-acquired-count)', () => {
    const r = run({
      topology: topo(2),
      consumers: [C.script('Q', rejectRequeue)],
      steps: [S.publish('', 'Q', 'm')],
      ...v43,
    });
    expect(r.observed.deliveries['Q']?.map((d) => d.headers)).toEqual([
      undefined,
      { 'x-delivery-count': 1, 'x-acquired-count': 1 },
      { 'x-delivery-count': 2, 'x-acquired-count': 2 },
    ]);
    expect(r.left('dead')).toEqual(['m']);
  });

  it('4.3 option: basic.nack requeue=true does not: it requeues past the limit, only x-acquired-count grows', () => {
    const r = run({
      topology: topo(2),
      consumers: [C.script('Q', A.requeue, A.requeue, A.requeue, A.requeue, A.ack)],
      steps: [S.publish('', 'Q', 'm')],
      ...v43,
    });
    expect(r.delivered('Q')).toHaveLength(5);
    expect(r.observed.deliveries['Q']?.map((d) => d.headers)).toEqual([
      undefined,
      ...[1, 2, 3, 4].map((n) => ({ 'x-acquired-count': n })),
    ]);
    expect(r.left('dead')).toEqual([]);
  });

  it('before 4.3 (4.x, 3.10) nack and reject both count', () => {
    for (const profile of ['3.10', '4.x'] as const)
      for (const a of [A.requeue, rejectRequeue])
        expect(
          run({
            topology: topo(2),
            consumers: [C.script('Q', a)],
            steps: [S.publish('', 'Q', 'm')],
            profile,
          }).delivered('Q'),
        ).toHaveLength(3);
  });

  it('3.10 basic.get on a quorum queue adds x-delivery-count 0 (rabbit_fifo_client.erl L250-258); 4.x does not', () => {
    const topoQ = T.topology(T.queue('Q', { quorum: true }));
    expect(run({ topology: topoQ, steps: [S.publish('', 'Q', 'm')] }).observed.final['Q']).toEqual([
      { body: 'm', headers: { 'x-delivery-count': 0 } },
    ]);
    expect(run({ topology: topoQ, steps: [S.publish('', 'Q', 'm')], profile: '4.x' }).observed.final['Q']).toEqual([
      { body: 'm' },
    ]);
  });
});

describe('quorum at-least-once dead-lettering', () => {
  // rabbitmq-semantics.md §2 "Missing DLX or no route", §6 item 23 (rabbit_fifo_dlx_worker.erl L296-345)
  const q = (dlx: string) =>
    T.queue('Q', {
      quorum: true,
      dlx,
      overflow: 'reject-publish',
      maxLength: 2,
      args: { 'x-dead-letter-strategy': 'at-least-once' },
    });

  it('a rejected message with no route is retained, not dropped (and, on a live 3.10.8, not counted toward x-max-length)', () => {
    const r = run({
      topology: T.topology(T.exchange('X'), q('X')),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2'), S.publish('', 'Q', 'm3')],
    });
    expect(r.of('dropped')).toEqual([]);
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm3']);
    expect(r.publishNacked).toEqual([]);
  });

  it('at-most-once (the default) drops it', () => {
    const r = run({
      topology: T.topology(T.exchange('X'), T.queue('Q', { quorum: true, dlx: 'X' })),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm1')],
    });
    expect(r.of('dropped').map((e) => e.why)).toEqual(['no-route']);
  });
});

describe('4.3 quorum delayed retry (rabbitmq-website docs/quorum-queues/index.md #delayed-retry)', () => {
  // "delay = min(min_delay * delivery_count, max_delay)"; types all | failed | returned | disabled
  const topo = (args: Record<string, string | number>, limit = 3) =>
    T.topology(
      T.exchange('dlx', 'fanout'),
      T.queue('Q', { quorum: true, dlx: 'dlx', deliveryLimit: limit, args }),
      T.queue('dead'),
      T.bind('dlx', 'dead'),
    );
  const retry = (type: string, min = 1000, max?: number) => ({
    'x-delayed-retry-type': type,
    'x-delayed-retry-min': min,
    ...(max !== undefined ? { 'x-delayed-retry-max': max } : {}),
  });
  const rejectRequeue = { kind: 'requeue' as const, via: 'reject' as const };
  const v43 = { profile: '4.x' as const, profileOptions: { v43: true } };
  const times = (r: ReturnType<typeof run>) => r.of('delivered').map((e) => e.t);

  it('all + basic.reject: held min x delivery-count, capped at max; the limit then dead-letters', () => {
    const r = run({
      topology: topo(retry('all', 1000, 2500)),
      consumers: [C.script('Q', rejectRequeue)],
      steps: [S.publish('', 'Q', 'm')],
      ...v43,
    });
    expect(times(r)).toEqual([0, 1000, 3000, 5500]);
    expect(r.of('requeued').map((e) => e.delayMs)).toEqual([1000, 2000, 2500, undefined]);
    expect(r.left('dead')).toEqual(['m']);
    expect(r.ignoredArguments).toBeUndefined();
  });

  it('without x-delayed-retry-max the max is the min: every delay is min (4.3.6 measured: "all (min: 300ms, max: 300ms)", waits 300, 300)', () => {
    const r = run({
      topology: topo(retry('all', 100)),
      consumers: [C.script('Q', rejectRequeue)],
      steps: [S.publish('', 'Q', 'm')],
      ...v43,
    });
    expect(times(r)).toEqual([0, 100, 200, 300]);
  });

  it('arguments 4.3.6 accepts but does not run: a bad type or min leaves it disabled, a bad max is the min, a max below min caps every delay (measured)', () => {
    const go = (args: Record<string, string | number>) =>
      times(
        run({
          topology: topo(args),
          consumers: [C.script('Q', rejectRequeue, rejectRequeue, A.ack)],
          steps: [S.publish('', 'Q', 'm')],
          ...v43,
        }),
      );
    expect(go({ 'x-delayed-retry-type': 'all' })).toEqual([0, 0, 0]);
    expect(go(retry('all', 0))).toEqual([0, 0, 0]);
    expect(go(retry('all', -1))).toEqual([0, 0, 0]);
    expect(go(retry('ALL', 300))).toEqual([0, 0, 0]);
    expect(go(retry('all', 300, -5))).toEqual([0, 300, 600]);
    expect(go(retry('all', 1000, 500))).toEqual([0, 500, 1000]);
  });

  it('a nack leaves delivery-count at 0: never delayed longer than the minimum', () => {
    const r = run({
      topology: topo(retry('all', 1000, 30000)),
      consumers: [C.script('Q', A.requeue, A.requeue, A.ack)],
      steps: [S.publish('', 'Q', 'm')],
      ...v43,
    });
    expect(times(r)).toEqual([0, 1000, 2000]);
  });

  it('failed delays only basic.reject returns; returned only basic.nack returns', () => {
    const go = (type: string, a: typeof A.requeue | typeof rejectRequeue) =>
      times(
        run({
          topology: topo(retry(type, 1000)),
          consumers: [C.script('Q', a, A.ack)],
          steps: [S.publish('', 'Q', 'm')],
          ...v43,
        }),
      );
    expect(go('failed', rejectRequeue)).toEqual([0, 1000]);
    expect(go('failed', A.requeue)).toEqual([0, 0]);
    expect(go('returned', A.requeue)).toEqual([0, 1000]);
    expect(go('returned', rejectRequeue)).toEqual([0, 0]);
    expect(go('disabled', rejectRequeue)).toEqual([0, 0]);
  });

  it('policy keys delayed-retry-* work too', () => {
    const topology = {
      ...topo({}),
      policies: [
        {
          name: 'p',
          vhost: '/',
          pattern: '^Q$',
          'apply-to': 'queues' as const,
          priority: 0,
          definition: { 'delayed-retry-type': 'all', 'delayed-retry-min': 500 },
        },
      ],
    };
    expect(
      times(
        run({ topology, consumers: [C.script('Q', rejectRequeue, A.ack)], steps: [S.publish('', 'Q', 'm')], ...v43 }),
      ),
    ).toEqual([0, 500]);
  });

  it('a held message is not ready: another message is delivered meanwhile', () => {
    const r = run({
      topology: topo(retry('all', 1000)),
      consumers: [C.script('Q', rejectRequeue, A.ack)],
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')],
      ...v43,
    });
    // m1 is held from t=0, so m2 is delivered at once (and held too); both come back at 1000 in return order
    expect(r.of('delivered').map((e) => [e.body, e.t])).toEqual([
      ['m1', 0],
      ['m2', 0],
      ['m1', 1000],
      ['m2', 1000],
    ]);
  });

  it('3.10 and 4.0-4.2 ignore x-delayed-retry-* (reported in ignoredArguments): redelivered at once', () => {
    for (const profile of ['3.10', '4.x'] as const) {
      const r = run({
        topology: topo(retry('all', 1000)),
        consumers: [C.script('Q', rejectRequeue, A.ack)],
        steps: [S.publish('', 'Q', 'm')],
        profile,
      });
      expect(times(r)).toEqual([0, 0]);
      expect(r.ignoredArguments?.map((i) => i.argument)).toEqual(['x-delayed-retry-type', 'x-delayed-retry-min']);
      expect(r.ignoredArguments?.[0]?.why).toMatch(
        profile === '3.10' ? /3\.10 has no quorum-queue delayed retry/ : /4\.0-4\.2/,
      );
    }
  });
});
