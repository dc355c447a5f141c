import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// rabbitmq-semantics.md §2 "Cycle detection" (srv@v3.10.8 rabbit_dead_letter.erl L197-246), §6 items 31-35
describe('dead-letter cycles', () => {
  it('item 31: max-length 1 with DLX "" back to itself: m1 is dropped as a cycle', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { maxLength: 1, dlx: '' })),
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')],
    });
    expect(r.left('Q')).toEqual(['m2']);
    expect(r.of('dropped').map((e) => [e.body, e.why, e.queue])).toEqual([['m1', 'cycle', 'Q']]);
  });

  it('item 32: TTL 1 with DLX "" back to itself: dropped', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { ttl: 1, dlx: '' })),
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')],
    });
    expect(r.left('Q')).toEqual([]);
    expect(r.of('dropped').map((e) => e.why)).toEqual(['cycle', 'cycle']);
  });

  it('item 33: rejections are never a cycle', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { dlx: '' })),
      consumers: [C.script('Q', A.reject, A.reject, A.ack)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.delivered('Q')).toEqual(['m', 'm', 'm']);
    expect(r.observed.deliveries['Q']?.[2]?.['x-death']).toEqual([
      { queue: 'Q', reason: 'rejected', count: 2, exchange: '', 'routing-keys': ['Q'] },
    ]);
  });

  it('item 34: reject -> expire -> expire back to the rejecting queue (b, a2, a3)', () => {
    const input = {
      topology: T.topology(
        T.queue('b', { dlx: '', dlrk: 'a2' }),
        T.queue('a2', { ttl: 5, dlx: '', dlrk: 'a3' }),
        T.queue('a3', { ttl: 5, dlx: '', dlrk: 'b' }),
      ),
      consumers: [C.script('b', A.reject, A.reject, A.ack)],
      steps: [S.publish('', 'b', 'm')],
    };
    // 4.x (DLS@v4.2.9:392): the rejection in b keeps every pass alive
    const r4 = run({ ...input, profile: '4.x' });
    expect(r4.delivered('b')).toEqual(['m', 'm', 'm']);
    expect(r4.of('dropped')).toEqual([]);
    // 3.10.8: x-death is regrouped (reversed) on each death, so on the second pass the a3 entry sits
    // ahead of b's rejection and a2 -> a3 looks fully automatic: dropped. Checked on a live 3.10.8
    // broker (pnpm conformance --target broker): two deliveries, x-death [a3, b, a2].
    const r3 = run(input);
    expect(r3.delivered('b')).toEqual(['m', 'm']);
    expect(r3.observed.deliveries['b']?.[1]?.['x-death']?.map((d) => d.queue)).toEqual(['a3', 'b', 'a2']);
    expect(r3.of('dropped').map((e) => [e.why, e.queue])).toEqual([['cycle', 'a3']]);
  });

  it('item 35: Q1 -> Q2 -> Q1 by TTL alone: dropped when routed back to Q1, x-death [Q2, Q1]', () => {
    const r = run({
      topology: T.topology(
        T.queue('Q1', { ttl: 10, dlx: '', dlrk: 'Q2' }),
        T.queue('Q2', { ttl: 10, dlx: '', dlrk: 'Q1' }),
      ),
      steps: [S.publish('', 'Q1', 'm')],
    });
    const drop = r.of('dropped');
    expect(drop.map((e) => [e.why, e.queue, e.t])).toEqual([['cycle', 'Q1', 20]]);
    const dl = r.of('dead-lettered');
    expect(dl.map((e) => [e.queue, e.reason])).toEqual([
      ['Q1', 'expired'],
      ['Q2', 'expired'],
    ]);
  });

  it('a cycling target is dropped for that target only; other targets still get it', () => {
    const r = run({
      topology: T.topology(
        T.exchange('dlx', 'fanout'),
        T.queue('Q', { ttl: 1, dlx: 'dlx' }),
        T.queue('other'),
        T.bind('dlx', 'Q'),
        T.bind('dlx', 'other'),
      ),
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.left('other')).toEqual(['m']);
    expect(r.left('Q')).toEqual([]);
    expect(r.of('dropped').map((e) => [e.why, e.queue])).toEqual([['cycle', 'Q']]);
  });
});
