import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from './testing/builders.js';

// rabbitmq-semantics.md §2 "QQ delivery-limit", §5 "Requeue position", §6 items 3, 7, 7b, 20, 21
const three = [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2'), S.publish('', 'Q', 'm3')];
const requeueOnce = () => C.script('Q', A.requeue, A.ack);

describe('requeue position', () => {
  it('item 7 (classic): a requeued message goes back to its original position, redelivered', () => {
    const r = run({ topology: T.topology(T.queue('Q')), consumers: [requeueOnce()], steps: three, startConsumers: 'after' });
    expect(r.delivered('Q')).toEqual(['m1', 'm1', 'm2', 'm2', 'm3', 'm3']);
    expect(r.of('delivered').map((e) => e.redelivered)).toEqual([false, true, false, true, false, true]);
  });

  it('item 7 (classic, prefetch 3): requeue of the first returns it ahead of the others', () => {
    // all three delivered at once; m1 requeued -> it is the only ready message and comes back first
    const r = run({ topology: T.topology(T.queue('Q')), consumers: [C.withPrefetch(C.script('Q', A.requeue, A.ack), 3)], steps: three, startConsumers: 'after' });
    expect(r.delivered('Q').slice(0, 4)).toEqual(['m1', 'm2', 'm3', 'm1']);
  });

  it('item 7b: a 3.10 quorum queue without a delivery limit requeues to the back', () => {
    const r = run({ topology: T.topology(T.queue('Q', { quorum: true })), consumers: [C.script('Q', A.requeue, A.ack)], steps: three, startConsumers: 'after' });
    // m1 goes behind m2, m3; each of them is requeued once too
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm3', 'm1', 'm2', 'm3']);
    expect(r.observed.deliveries['Q']?.[3]).toEqual({ body: 'm1', redelivered: true, headers: { 'x-delivery-count': 1 } });
  });

  it('item 7 (quorum with a limit): returns are served before other ready messages', () => {
    const r = run({ topology: T.topology(T.queue('Q', { quorum: true, deliveryLimit: 50 })), consumers: [C.script('Q', A.requeue, A.ack)], steps: three, startConsumers: 'after' });
    expect(r.delivered('Q')).toEqual(['m1', 'm1', 'm2', 'm2', 'm3', 'm3']);
  });
});

describe('quorum delivery limit', () => {
  const topo = (limit: number | undefined) =>
    T.topology(T.exchange('dlx', 'fanout'), T.queue('Q', { quorum: true, dlx: 'dlx', ...(limit !== undefined ? { deliveryLimit: limit } : {}) }), T.queue('dead'), T.bind('dlx', 'dead'));

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
    const r = run({ topology: topo(undefined), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')], maxEvents: 2000 });
    expect(r.truncated).toBe(true);
    expect(r.left('dead')).toEqual([]);
  });

  it('4.x: default delivery limit 20 (srv@v4.0.9 rabbit_quorum_queue.erl L111, L332-345; RN 4.0.1)', () => {
    const r = run({ topology: topo(undefined), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')], profile: '4.x' });
    expect(r.delivered('Q')).toHaveLength(21);
    expect(r.left('dead')).toEqual(['m']);
  });

  it('4.x: x-delivery-limit -1 disables the limit (srv@v4.0.9 rabbit_quorum_queue.erl L371-375)', () => {
    const r = run({ topology: topo(-1), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')], profile: '4.x', maxEvents: 2000 });
    expect(r.truncated).toBe(true);
  });

  it('4.3 option: explicit requeues (nack requeue=true) still count toward the limit (RN 4.3.0)', () => {
    const r = run({ topology: topo(2), consumers: [C.script('Q', A.requeue)], steps: [S.publish('', 'Q', 'm')], profile: '4.x', profileOptions: { v43: true } });
    expect(r.delivered('Q')).toHaveLength(3);
  });

  it('3.10 basic.get on a quorum queue adds x-delivery-count 0 (rabbit_fifo_client.erl L250-258); 4.x does not', () => {
    const topoQ = T.topology(T.queue('Q', { quorum: true }));
    expect(run({ topology: topoQ, steps: [S.publish('', 'Q', 'm')] }).observed.final['Q']).toEqual([{ body: 'm', headers: { 'x-delivery-count': 0 } }]);
    expect(run({ topology: topoQ, steps: [S.publish('', 'Q', 'm')], profile: '4.x' }).observed.final['Q']).toEqual([{ body: 'm' }]);
  });
});

describe('quorum at-least-once dead-lettering', () => {
  // rabbitmq-semantics.md §2 "Missing DLX or no route", §6 item 23 (rabbit_fifo_dlx_worker.erl L296-345)
  const q = (dlx: string) =>
    T.queue('Q', { quorum: true, dlx, overflow: 'reject-publish', maxLength: 2, args: { 'x-dead-letter-strategy': 'at-least-once' } });

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
    const r = run({ topology: T.topology(T.exchange('X'), T.queue('Q', { quorum: true, dlx: 'X' })), consumers: [C.script('Q', A.reject)], steps: [S.publish('', 'Q', 'm1')] });
    expect(r.of('dropped').map((e) => e.why)).toEqual(['no-route']);
  });
});
