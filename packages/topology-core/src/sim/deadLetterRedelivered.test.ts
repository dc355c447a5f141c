import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from './testing/builders.js';

// ../shared/reference/rabbitmq-4.3.md, dlx-error-queue-requeue-consumer: on 4.3.6 a message
// dead-lettered into a classic queue while its only consumer (prefetch 1) holds an unacked
// message is delivered `redelivered: true`; 3.10.8 says false; published messages say false on both.
describe('redelivered flag of a dead letter that waits for a busy consumer', () => {
  // the reference's minimal case: three messages rejected into a DLX at once; the DLQ consumer
  // republishes each (and waits for the confirm) before its ack
  const topo = T.topology(
    T.exchange('dlx', 'fanout'),
    T.queue('work', { dlx: 'dlx' }),
    T.queue('dlq'),
    T.queue('parked'),
    T.bind('dlx', 'dlq'),
  );
  const input = {
    topology: topo,
    consumers: [C.script('dlq', A.republish('', { routingKey: 'parked' }))],
    steps: [S.publish('', 'work', 'a'), S.publish('', 'work', 'b'), S.publish('', 'work', 'c')],
  };
  const rejectAll = () => C.withPrefetch(C.script('work', A.reject), 3);
  const flags = (r: ReturnType<typeof run>, q: string) => r.of('delivered').filter((e) => e.queue === q).map((e) => e.redelivered);

  it('4.3: false, true, true', () => {
    const r = run({ ...input, consumers: [...input.consumers, rejectAll()], startConsumers: 'after', profile: '4.x', profileOptions: { v43: true } });
    expect(flags(r, 'dlq')).toEqual([false, true, true]);
  });

  it('3.10 and 4.0-4.2: false, false, false', () => {
    for (const profile of ['3.10', '4.x'] as const) {
      const r = run({ ...input, consumers: [...input.consumers, rejectAll()], startConsumers: 'after', profile });
      expect(flags(r, 'dlq')).toEqual([false, false, false]);
    }
  });

  it('4.3: messages published into the same busy queue are not flagged', () => {
    const r = run({
      topology: topo,
      consumers: [C.script('dlq', A.republish('', { routingKey: 'parked' }))],
      steps: [S.publish('', 'dlq', 'a'), S.publish('', 'dlq', 'b')],
      startConsumers: 'after',
      profile: '4.x',
      profileOptions: { v43: true },
    });
    expect(flags(r, 'dlq')).toEqual([false, false]);
  });

  it('4.3: a dead letter into a queue with no consumer is not flagged (drained or consumed later)', () => {
    const r = run({ topology: topo, consumers: [C.script('work', A.reject)], steps: [S.publish('', 'work', 'a')], profile: '4.x', profileOptions: { v43: true } });
    expect(r.final['dlq']?.map((m) => m.redelivered)).toEqual([false]);
  });

  it('a republishing consumer acks after the copy has been delivered and handled (it waits for the confirm)', () => {
    const t = T.topology(T.queue('a'), T.queue('b'));
    const r = run({ topology: t, consumers: [C.script('a', A.republish('', { routingKey: 'b' })), C.script('b', A.ack)], steps: [S.publish('', 'a', 'm')] });
    const order = r.events.filter((e) => e.kind === 'acked').map((e) => (e.kind === 'acked' ? e.queue : ''));
    expect(order).toEqual(['b', 'a']);
  });
});

describe('publish expiration', () => {
  it('a numeric expiration in a publish step is delivered as the string the broker sends', () => {
    const step = S.publish('', 'q', 'm');
    const numeric = { ...step, properties: { expiration: 5000 as unknown as string } };
    const r = run({ topology: T.topology(T.queue('q')), consumers: [C.script('q', A.ack)], steps: [numeric] });
    expect(r.observed.deliveries['q']?.[0]?.expiration).toBe('5000');
  });
});
