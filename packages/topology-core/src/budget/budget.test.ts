import { describe, expect, it } from 'vitest';
import { buildTemplate } from '../templates/registry.js';
import { compareStrategies, computeBudget, formatComparison } from './budget.js';

const design = (id: string, params = {}) => {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(id);
  return r.template;
};

describe('computeBudget', () => {
  it('DLX + TTL wait queue, failing always: attempts, schedule, time, ending, ops', () => {
    const t = design('dlx-ttl-wait-queue', { maxRetries: 3, delayMs: 5000 });
    const b = computeBudget(t.design, { kind: 'always' }, { workConsumers: t.workConsumers });
    expect(b.attempts).toBe(4);
    expect(b.delaysMs).toEqual([5000, 5000, 5000]);
    expect(b.timeToFinalMs).toBe(15000);
    expect(b.endsIn).toEqual({ kind: 'queue', queue: 'orders.parking' });
    // 3 rejections + 3 expiries dead-lettered; 1 publish + the parking republish
    expect(b.ops.deadLetterings).toBe(6);
    expect(b.ops.publishes).toBe(2);
    expect(b.objects).toEqual({ exchanges: 3, queues: 3, bindings: 3, policies: 0, total: 9 });
    expect(b.declare.queues).toEqual(['orders.q', 'orders.wait', 'orders.parking']);
    expect(b.risks.map((r) => r.kind)).toEqual(expect.arrayContaining(['reordering', 'loss']));
  });

  it('the at-most-once loss risk names the queues it is true of, and is absent where every dead-lettering queue is at-least-once', () => {
    const t = design('dlx-ttl-wait-queue', { maxRetries: 1, delayMs: 1000 });
    expect(computeBudget(t.design, { kind: 'always' }).risks.find((r) => r.kind === 'loss')?.why).toMatch(
      /^dead-lettering from orders\.q, orders\.wait is at-most-once/,
    );
    const atLeastOnce = {
      ...t.design,
      topology: {
        ...t.design.topology,
        queues: t.design.topology.queues.map((q) =>
          q.arguments?.['x-dead-letter-exchange'] === undefined
            ? q
            : {
                ...q,
                arguments: {
                  ...q.arguments,
                  'x-queue-type': 'quorum',
                  'x-dead-letter-strategy': 'at-least-once',
                  'x-overflow': 'reject-publish',
                },
              },
        ),
      },
    };
    expect(computeBudget(atLeastOnce, { kind: 'always' }).risks.map((r) => r.kind)).not.toContain('loss');
  });

  it('with a node loss: the wait for the lost queue is in the time to final', () => {
    const t = design('dlx-ttl-wait-queue', { maxRetries: 3, delayMs: 5000 });
    const base = computeBudget(t.design, { kind: 'always' }, { workConsumers: t.workConsumers });
    // orders.q (classic) is on the node lost at 6 s for 20 s: the retry due at 5 s is served, the one due at 10 s waits until 26 s
    const lossy = computeBudget(
      t.design,
      { kind: 'always' },
      {
        workConsumers: t.workConsumers,
        nodeLoss: { node: 'n2', atMs: 6000, downMs: 20_000, leaderMovesAfterMs: 1000, queues: ['orders.q'] },
      },
    );
    expect(lossy.attempts).toBe(base.attempts);
    expect(lossy.timeToFinalMs - base.timeToFinalMs).toBe(16_000);
  });

  it('fail the first k attempts', () => {
    const t = design('delayed-exchange', { maxRetries: 5, initialDelayMs: 100, multiplier: 2 });
    const b = computeBudget(t.design, { kind: 'failFirst', n: 2 });
    expect(b.attempts).toBe(3);
    expect(b.delaysMs).toEqual([100, 200]);
    expect(b.endsIn).toEqual({ kind: 'acked' });
    expect(b.ops.delayed).toBe(2);
    expect(b.requires).toEqual(['x-delayed-message']);
    expect(b.risks.map((r) => r.kind)).toContain('duplicates');
  });

  it('poison message among healthy ones: a quorum requeue goes to the back (recorded: quorum-requeue-to-back), blocking nothing', () => {
    const t = design('quorum-delivery-limit', { deliveryLimit: 2 });
    const b = computeBudget(t.design, { kind: 'poison' }, { messages: 3 });
    expect(b.attempts).toBe(3);
    expect(b.endsIn).toEqual({ kind: 'queue', queue: 'jobs.dead' });
    expect(b.traces).toHaveLength(4);
    expect(b.traces.slice(1).every((x) => x.endsIn.kind === 'acked')).toBe(true);
    // one wording for the 3.10 quorum requeue position, as both brokers recorded it: the back, never the head
    expect(b.risks.map((r) => r.kind)).not.toContain('head-of-line');
    expect(b.risks.find((r) => r.kind === 'reordering' && r.why.includes('requeued'))?.why).toBe(
      'a quorum queue puts a requeued message at the back of jobs.q: newer messages are delivered before its retry',
    );
  });

  it('a strategy that never gives up is reported unbounded', () => {
    const t = design('spring-stateless', { recoverer: 'requeue', maxAttempts: 2, initialIntervalMs: 1000 });
    const b = computeBudget(t.design, { kind: 'always' }, { maxTimeMs: 60_000 });
    expect(b.truncated).toBe(true);
    expect(b.endsIn.kind).toBe('cycling');
    expect(b.risks.map((r) => r.kind)).toContain('unbounded');
  });
});

describe('script consumers (scenarios, definitions with ad-hoc consumers)', () => {
  it('counts the deliveries of the consumer that saw the message most', () => {
    const d = design('requeue-once').design;
    const scripted = {
      ...d,
      consumers: [
        {
          id: 's',
          queue: 'orders.q',
          behaviour: {
            kind: 'script' as const,
            actions: [{ kind: 'requeue' as const }, { kind: 'requeue' as const }, { kind: 'ack' as const }],
          },
        },
      ],
    };
    const b = computeBudget(scripted, { kind: 'always' });
    expect(b.attempts).toBe(3);
    expect(b.endsIn).toEqual({ kind: 'acked' });
  });
});

describe('compareStrategies', () => {
  it('puts several strategies side by side under one failure model', () => {
    const rows = compareStrategies(
      [
        { label: 'requeue-once', design: design('requeue-once').design },
        { label: 'dlx-ttl-wait-queue', design: design('dlx-ttl-wait-queue').design },
        { label: 'chained-ttl', design: design('chained-ttl').design },
      ],
      { kind: 'always' },
    );
    expect(rows.map((r) => [r.label, r.attempts, r.endsIn.kind])).toEqual([
      ['requeue-once', 2, 'dropped'],
      ['dlx-ttl-wait-queue', 4, 'queue'],
      ['chained-ttl', 4, 'queue'],
    ]);
    const text = formatComparison(rows);
    expect(text.split('\n')).toHaveLength(5);
    expect(text).toContain('chained-ttl');
  });

  it('a batch consumer whose batch never fills: the message is held unacked, not processed', () => {
    const t = design('dlx-ttl-wait-queue');
    const q = t.design.consumers[0]!.queue;
    const batch = {
      ...t.design,
      consumers: [
        {
          id: 'batcher',
          queue: q,
          prefetch: 3,
          behaviour: {
            kind: 'worker' as const,
            onFailure: [
              {
                when: { kind: 'lt' as const, counter: { kind: 'held' as const }, value: 3 },
                then: { kind: 'hold' as const },
              },
              { then: { kind: 'reject' as const, multiple: true } },
            ],
          },
        },
      ],
    };
    const b = computeBudget(batch, { kind: 'always' });
    expect(b.endsIn).toEqual({ kind: 'held', consumer: 'batcher' });
    expect(b.risks.find((r) => r.kind === 'unbounded')?.why).toMatch(/holds the message unacked/);
  });
});
