import { describe, expect, it } from 'vitest';
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import { C, S, T, run } from '../../testing/builders.js';

// AMQP basic.ack / basic.nack with multiple=true: this delivery and every earlier unsettled one on
// the channel (rabbit_channel collect_acks), settled oldest first. Recorded: conformance/scenarios*/nack-multiple-*.
const three = [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2'), S.publish('', 'Q', 'm3')];
const HOLD: ConsumerAction = { kind: 'hold' };

/** a batch consumer: holds deliveries until it holds `size`, then settles them all with `settle` */
function batch(queue: string, size: number, settle: ConsumerAction, first: Rule[] = []): ConsumerSpec {
  return {
    id: `${queue}-batch`,
    queue,
    prefetch: size,
    behaviour: {
      kind: 'router',
      rules: [...first, { when: { kind: 'lt', counter: { kind: 'held' }, value: size }, then: HOLD }, { then: settle }],
    },
  };
}
const dlxTopo = (o: { quorum?: boolean; deliveryLimit?: number } = {}) =>
  T.topology(T.exchange('dlx', 'fanout'), T.queue('Q', { dlx: 'dlx', ...o }), T.queue('dead'), T.bind('dlx', 'dead'));

describe('settling several deliveries at once (multiple)', () => {
  it('nack multiple requeue=false dead-letters the whole batch, oldest first, each with reason rejected', () => {
    const r = run({
      topology: dlxTopo(),
      consumers: [batch('Q', 3, { kind: 'reject', multiple: true })],
      steps: three,
    });
    expect(r.of('rejected').map((e) => [e.body, e.multiple])).toEqual([
      ['m1', true],
      ['m2', true],
      ['m3', true],
    ]);
    expect(r.of('dead-lettered').map((e) => [e.body, e.reason])).toEqual([
      ['m1', 'rejected'],
      ['m2', 'rejected'],
      ['m3', 'rejected'],
    ]);
    expect(r.left('dead')).toEqual(['m1', 'm2', 'm3']);
    expect(r.left('Q')).toEqual([]);
  });

  it('a held delivery keeps its prefetch slot: with two held, the third waits for a slot only prefetch gives', () => {
    // prefetch 2, batch of 3: two held fill the prefetch and nothing settles them
    const c = { ...batch('Q', 3, { kind: 'reject', multiple: true }), prefetch: 2 };
    const r = run({ topology: dlxTopo(), consumers: [c], steps: three });
    expect(r.delivered('Q')).toEqual(['m1', 'm2']);
    expect(r.left('Q')).toEqual(['m3']);
    expect(r.of('dead-lettered')).toEqual([]);
  });

  it('nack multiple requeue=true on a classic queue: each goes back to its own position, redelivered in order', () => {
    const c = batch('Q', 3, { kind: 'requeue', multiple: true }, [
      { when: { kind: 'redelivered', is: true }, then: { kind: 'ack' } },
    ]);
    const r = run({ topology: dlxTopo(), consumers: [c], steps: three });
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm3', 'm1', 'm2', 'm3']);
    expect(r.of('delivered').map((e) => e.redelivered)).toEqual([false, false, false, true, true, true]);
    expect(r.of('requeued').map((e) => [e.body, e.via, e.multiple])).toEqual([
      ['m1', undefined, true],
      ['m2', undefined, true],
      ['m3', undefined, true],
    ]);
    // the acks of the second round are plain basic.ack
    expect(r.of('acked').map((e) => [e.body, e.multiple])).toEqual([
      ['m1', undefined],
      ['m2', undefined],
      ['m3', undefined],
    ]);
  });

  it('ack multiple acks the batch; a script can hold by delivery count of the same body', () => {
    // the scenario format counts deliveries per body: three messages with one body are its 1st, 2nd and 3rd
    const same = [1, 2, 3].map((n) => S.publish('', 'Q', 'm', { headers: { n } }));
    const c = { ...C.script('Q', HOLD, HOLD, { kind: 'ack', multiple: true }), prefetch: 3 };
    const r = run({ topology: dlxTopo(), consumers: [c], steps: same });
    expect(r.of('acked').map((e) => e.msgId)).toEqual(['m', 'm', 'm']);
    expect(r.of('acked')).toHaveLength(3);
    expect(r.left('Q')).toEqual([]);
  });

  it('quorum queue, delivery limit 1, nack multiple requeue: 3.10 counts each return and dead-letters the batch on the second', () => {
    const c = batch('Q', 3, { kind: 'requeue', multiple: true });
    const r = run({
      topology: dlxTopo({ quorum: true, deliveryLimit: 1 }),
      consumers: [c],
      steps: three,
      profile: '3.10',
    });
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm3', 'm1', 'm2', 'm3']);
    expect(r.observed.deliveries['Q']?.slice(3).map((d) => d.headers?.['x-delivery-count'])).toEqual([1, 1, 1]);
    expect(r.of('dead-lettered').map((e) => [e.body, e.reason])).toEqual([
      ['m1', 'delivery_limit'],
      ['m2', 'delivery_limit'],
      ['m3', 'delivery_limit'],
    ]);
  });

  it('quorum queue on 4.3: a nack (multiple or not) does not count, the batch comes back with x-acquired-count only', () => {
    const c = batch('Q', 3, { kind: 'requeue', multiple: true });
    const r = run({
      topology: dlxTopo({ quorum: true, deliveryLimit: 1 }),
      consumers: [c],
      steps: three,
      profile: '4.3',
      maxEvents: 3_000,
    });
    expect(r.truncated).toBe(true);
    expect(r.of('dead-lettered')).toEqual([]);
    const later = r.observed.deliveries['Q']?.slice(3, 6).map((d) => d.headers);
    expect(later).toEqual([{ 'x-acquired-count': 1 }, { 'x-acquired-count': 1 }, { 'x-acquired-count': 1 }]);
  });

  it('a delivery still being processed (in-process retry) that a later ack multiple settles is not settled twice', () => {
    // m1 fails and sleeps 1 s before its next in-process attempt; m2 succeeds and acks multiple: m1 goes with it
    const w: ConsumerSpec = {
      id: 'w',
      queue: 'Q',
      prefetch: 3,
      behaviour: {
        kind: 'worker',
        failure: { kind: 'poison', bodies: ['m1'] },
        onSuccess: { kind: 'ack', multiple: true },
        onFailure: [
          {
            then: {
              kind: 'retryInProcess',
              maxAttempts: 3,
              backoff: { initialMs: 1000, multiplier: 1, maxMs: 1000 },
              recover: { kind: 'reject' },
            },
          },
        ],
      },
    };
    const r = run({ topology: dlxTopo(), consumers: [w], steps: three });
    expect(r.of('acked').map((e) => e.body)).toEqual(['m1', 'm2', 'm3']);
    // its scheduled retry found it settled: no second processing run, no reject
    expect(r.of('processed').filter((e) => e.body === 'm1')).toHaveLength(1);
    expect(r.of('rejected')).toEqual([]);
    expect(r.left('dead')).toEqual([]);
  });
});
