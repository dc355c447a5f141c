import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';
import { PROFILE_3_10, PROFILE_4_X, profileFor } from './profiles.js';

// The 4.x profile: each documented difference from 3.10 (rabbitmq-semantics.md §0)
describe('broker profiles', () => {
  it('3.10 is the default; 4.x with v43 changes what counts toward the delivery limit and adds quorum delayed retry', () => {
    expect(profileFor(undefined)).toBe(PROFILE_3_10);
    expect(profileFor('4.x')).toBe(PROFILE_4_X);
    expect(profileFor('4.x', { v43: true })).toEqual({
      ...PROFILE_4_X,
      onlyRejectsCountTowardLimit: true,
      quorumDelayedRetry: true,
      deadLetterCarriesDeliveryCount: true,
      radlxPlugin: false,
      classicConsumerTimeout: false,
    });
  });

  // nanit option 3 (shared recording nanit-3-republish-per-message-ttl): republish copies x-death
  const nanit3 = T.topology(
    T.exchange('retry', 'topic'),
    T.exchange('back'),
    T.queue('work'),
    T.queue('wait', { dlx: 'back' }),
    T.bind('retry', 'wait', '#'),
    T.bind('back', 'work', 'work'),
  );
  const consumer = () =>
    C.script(
      'work',
      A.republish('retry', { routingKey: 'work', headers: { 'x-retries': 1 }, expiration: 100 }),
      A.republish('retry', { routingKey: 'work', headers: { 'x-retries': 2 }, expiration: 200 }),
      A.ack,
    );

  it('3.10: the copied x-death is counted on (recorded: nanit-3, count 1 then 2)', () => {
    const r = run({ topology: nanit3, consumers: [consumer()], steps: [S.publish('', 'work', 'm')] });
    expect(r.observed.deliveries['work']?.map((d) => d['x-death']?.[0]?.count)).toEqual([undefined, 1, 2]);
  });

  it('4.x: client-set x-death is ignored, each death starts at count 1 and x-first-death-* is rewritten (RN 4.0.1; DLS@v4.2.9:1344)', () => {
    const r = run({ topology: nanit3, consumers: [consumer()], steps: [S.publish('', 'work', 'm')], profile: '4.x' });
    const d = r.observed.deliveries['work'] ?? [];
    expect(d.map((x) => x['x-death']?.[0]?.count)).toEqual([undefined, 1, 1]);
    expect(d[2]?.['x-death']).toHaveLength(1);
    // and x-last-death-* (3.13+, srv@v4.2.9 mc.erl L426-447)
    expect(d[2]?.headers).toMatchObject({
      'x-last-death-queue': 'wait',
      'x-last-death-reason': 'expired',
      'x-last-death-exchange': 'retry',
    });
  });

  it('4.x: a quorum queue requeues near the head by default (default limit 20 -> returns first; RN 4.0.1)', () => {
    const steps = [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')];
    const topo = T.topology(T.queue('Q', { quorum: true }));
    const r310 = run({ topology: topo, consumers: [C.script('Q', A.requeue, A.ack)], steps, startConsumers: 'after' });
    const r4 = run({
      topology: topo,
      consumers: [C.script('Q', A.requeue, A.ack)],
      steps,
      startConsumers: 'after',
      profile: '4.x',
    });
    expect(r310.delivered('Q')).toEqual(['m1', 'm2', 'm1', 'm2']);
    expect(r4.delivered('Q')).toEqual(['m1', 'm1', 'm2', 'm2']);
  });
});
