import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// ../shared/reference/rabbitmq-4.3.md, dlx-error-queue-requeue-consumer: on 4.3.6 a message
// dead-lettered into a classic queue while its only consumer (prefetch 1) holds an unacked
// message is delivered `redelivered: true`; 3.10.8 says false; published messages say false on both.
// What makes it: the dead letter carries its failed deliveries (our recordings
// conformance/scenarios-4.3/dead-letter-*.json); a message that expired unconsumed carries none.
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
  const flags = (r: ReturnType<typeof run>, q: string) =>
    r
      .of('delivered')
      .filter((e) => e.queue === q)
      .map((e) => e.redelivered);

  it('4.3: false, true, true', () => {
    const r = run({
      ...input,
      consumers: [...input.consumers, rejectAll()],
      startConsumers: 'after',
      profile: '4.x',
      profileOptions: { v43: true },
    });
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

  it('4.3: a message that expired unconsumed is not flagged, even behind a busy consumer', () => {
    const t = T.topology(
      T.exchange('dlx', 'fanout'),
      T.queue('wait', { dlx: 'dlx', ttl: 100 }),
      T.queue('dlq'),
      T.queue('parked'),
      T.bind('dlx', 'dlq'),
    );
    const r = run({
      ...input,
      topology: t,
      steps: [S.publish('', 'wait', 'a'), S.publish('', 'wait', 'b')],
      profile: '4.x',
      profileOptions: { v43: true },
    });
    expect(flags(r, 'dlq')).toEqual([false, false]);
  });

  it('4.3: into a quorum queue the carried rejects (not nacks) start its delivery-count, shown at once', () => {
    const t = T.topology(
      T.exchange('dlx', 'fanout'),
      T.queue('work', { dlx: 'dlx' }),
      T.queue('dlq', { quorum: true }),
      T.bind('dlx', 'dlq'),
    );
    const rejectRequeue = { kind: 'requeue', via: 'reject' } as const;
    const consumers = [C.script('work', rejectRequeue, A.requeue, A.reject), C.script('dlq', A.ack)];
    const r = run({
      topology: t,
      consumers,
      steps: [S.publish('', 'work', 'm')],
      profile: '4.x',
      profileOptions: { v43: true },
    });
    const d = r.of('delivered').filter((e) => e.queue === 'dlq');
    expect(d.map((e) => [e.redelivered, e.headers['x-delivery-count'], e.headers['x-acquired-count']])).toEqual([
      [true, 2, 2],
    ]);
    const r310 = run({ topology: t, consumers, steps: [S.publish('', 'work', 'm')] });
    expect(
      r310
        .of('delivered')
        .filter((e) => e.queue === 'dlq')
        .map((e) => [e.redelivered, e.headers['x-delivery-count']]),
    ).toEqual([[false, undefined]]);
  });

  it('a republishing consumer acks after the copy has been delivered and handled (it waits for the confirm)', () => {
    const t = T.topology(T.queue('a'), T.queue('b'));
    const r = run({
      topology: t,
      consumers: [C.script('a', A.republish('', { routingKey: 'b' })), C.script('b', A.ack)],
      steps: [S.publish('', 'a', 'm')],
    });
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
