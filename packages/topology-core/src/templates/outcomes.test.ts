/**
 * Every template, simulated: the documented outcome (attempts, delays between attempts, where
 * the message ends) must be what the simulator does.
 */
import { describe, expect, it } from 'vitest';
import { listTemplates, buildTemplate } from './registry.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';
import type { Ending } from '../sim/messageOutcome.js';

const norm = (e: Ending) =>
  e.kind === 'queue' ? { kind: 'queue', queues: [e.queue, ...(e.also ?? [])].sort() } : { kind: e.kind };

/** non-default parameters worth checking too */
const VARIANTS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['requeue-once', { deadLetter: true }],
  ['dlx-ttl-wait-queue', { maxRetries: 0 }],
  ['republish-ttl', { maxRetries: 5, initialDelayMs: 1000, multiplier: 3, maxDelayMs: 10000 }],
  ['chained-ttl', { delaysMs: [10, 20, 40, 80, 160] }],
  ['radlx-priority-dlq', { priority: 'standard', maxPerCycle: 2 }],
  ['radlx-cycles', { maxPerCycle: 3, cycleDelayMs: 1000 }],
  ['spring-stateless', { recoverer: 'reject', maxAttempts: 4 }],
  ['spring-stateful', { recoverer: 'reject', maxAttempts: 2 }],
  ['quorum-delivery-limit', { deliveryLimit: 0 }],
  ['binary-delay-levels', { levels: 10, unitMs: 100, delaysMs: [100, 12300, 102300] }],
  ['delayed-exchange', { maxRetries: 6, initialDelayMs: 500, multiplier: 2, maxDelayMs: 4000 }],
];

const cases = [...listTemplates().map((t) => [t.id, {}] as const), ...VARIANTS].flatMap(([id, params]) => {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(`${id} ${JSON.stringify(r.errors)}`);
  const p = Object.keys(params).length ? ` ${JSON.stringify(params)}` : '';
  return r.template.documented.map(
    (d) =>
      [
        `${id}${p} (${d.failure.kind}${d.failure.kind === 'failFirst' ? ` ${d.failure.n}` : ''})`,
        r.template,
        d,
      ] as const,
  );
});

describe('template outcomes (simulated)', () => {
  it.each(cases)('%s', (_name, built, doc) => {
    const input = designToSimulation(built.design, { messages: 1, failure: doc.failure, seed: 1 });
    const result = simulate({
      ...input,
      maxTimeMs: doc.attempts === 'unbounded' ? 60 * 60 * 1000 : (input.maxTimeMs ?? 7 * 24 * 3600 * 1000),
    });
    const traces = traceMessages(result, {
      workConsumers: built.workConsumers,
      activeQueues: activeQueuesOf(built.design),
    });
    expect(traces).toHaveLength(1);
    const tr = traces[0]!;
    if (doc.attempts === 'unbounded') {
      expect(result.truncated).toBe(true);
      expect(tr.attempts).toBeGreaterThan(3);
      expect(norm(tr.endsIn)).toEqual({ kind: 'cycling' });
      return;
    }
    expect({ attempts: tr.attempts, delaysMs: tr.delaysMs, endsIn: norm(tr.endsIn) }).toEqual({
      attempts: doc.attempts,
      delaysMs: doc.delaysMs,
      endsIn: norm(doc.endsIn),
    });
  });
});

describe('template details', () => {
  it('spring: a fatal error (x-fatal) is rejected at once, without retries', () => {
    const r = buildTemplate('spring-stateless');
    if (!r.ok) throw new Error('build');
    const d = r.template.design;
    const pub = { ...d.publishers[0]!, properties: { headers: { 'x-fatal': true } } };
    const result = simulate(
      designToSimulation({ ...d, publishers: [pub] }, { messages: 1, failure: { kind: 'always' } }),
    );
    const tr = traceMessages(result, { workConsumers: r.template.workConsumers })[0]!;
    expect(tr.attempts).toBe(1);
    expect(norm(tr.endsIn)).toEqual({ kind: 'queue', queues: ['orders.dlq'] });
  });
});

describe('chained-ttl under fail-first-k (attempts count per message, across the tiers)', () => {
  const run = (k: number, params: Record<string, unknown> = {}) => {
    const r = buildTemplate('chained-ttl', params);
    if (!r.ok) throw new Error('build');
    const result = simulate(
      designToSimulation(r.template.design, { messages: 1, failure: { kind: 'failFirst', n: k }, seed: 1 }),
    );
    const tr = traceMessages(result, {
      workConsumers: r.template.workConsumers,
      activeQueues: activeQueuesOf(r.template.design),
    })[0]!;
    const processed = result.events
      .filter((e) => e.kind === 'processed')
      .map((e) => (e.kind === 'processed' ? [e.consumer, e.attempt, e.ok] : []));
    return { attempts: tr.attempts, delaysMs: tr.delaysMs, endsIn: norm(tr.endsIn), processed };
  };

  it.each([
    [0, 1, [], 'worker-0'],
    [1, 2, [1000], 'worker-1'],
    [2, 3, [1000, 5000], 'worker-2'],
    [3, 4, [1000, 5000, 30000], 'worker-3'],
  ] as const)('fail the first %i: %i attempts, delays %j, acked by %s', (k, attempts, delays, last) => {
    const o = run(k);
    expect({ attempts: o.attempts, delaysMs: o.delaysMs, endsIn: o.endsIn }).toEqual({
      attempts,
      delaysMs: [...delays],
      endsIn: { kind: 'acked' },
    });
    // tier i processes the message's (i+1)-th attempt; only the last one succeeds
    expect(o.processed).toEqual(Array.from({ length: attempts }, (_, i) => [`worker-${i}`, i + 1, i === attempts - 1]));
    expect(o.processed.at(-1)?.[0]).toBe(last);
  });

  it('fail the first 4 with 3 tiers of wait: every tier fails, parked after 4 attempts', () => {
    expect(run(4)).toMatchObject({
      attempts: 4,
      delaysMs: [1000, 5000, 30000],
      endsIn: { kind: 'queue', queues: ['orders.parking'] },
    });
  });

  it('fail the first 2 with 5 tiers: succeeds at tier 2 after 10 + 20 ms', () => {
    expect(run(2, { delaysMs: [10, 20, 40, 80, 160] })).toMatchObject({
      attempts: 3,
      delaysMs: [10, 20],
      endsIn: { kind: 'acked' },
    });
  });
});

describe('quorum-delayed-retry (RabbitMQ 4.3, rabbitmq-website docs/quorum-queues/index.md #delayed-retry)', () => {
  const built = () => {
    const r = buildTemplate('quorum-delayed-retry', { minDelayMs: 1000, maxDelayMs: 2500, deliveryLimit: 4 });
    if (!r.ok) throw new Error('build');
    return r.template;
  };
  const trace = (t: ReturnType<typeof built>, input: ReturnType<typeof designToSimulation>) => {
    const result = simulate({ ...input, maxTimeMs: 60 * 60 * 1000 });
    return {
      result,
      tr: traceMessages(result, { workConsumers: t.workConsumers, activeQueues: activeQueuesOf(t.design) })[0]!,
    };
  };

  it("the docs' delay = min(min_delay x delivery_count, max_delay), then the delivery limit dead-letters", () => {
    const t = built();
    const { tr } = trace(t, designToSimulation(t.design, { messages: 1, failure: { kind: 'always' } }));
    expect({ attempts: tr.attempts, delaysMs: tr.delaysMs, endsIn: norm(tr.endsIn) }).toEqual({
      attempts: 5,
      delaysMs: [1000, 2000, 2500, 2500],
      endsIn: { kind: 'queue', queues: ['jobs.dead'] },
    });
  });

  it('fail the first 2: two delayed retries, then acked', () => {
    const t = built();
    const { tr } = trace(t, designToSimulation(t.design, { messages: 1, failure: { kind: 'failFirst', n: 2 } }));
    expect({ attempts: tr.attempts, delaysMs: tr.delaysMs, endsIn: norm(tr.endsIn) }).toEqual({
      attempts: 3,
      delaysMs: [1000, 2000],
      endsIn: { kind: 'acked' },
    });
  });

  it('on 4.0-4.2 (no v43) the arguments are ignored and reported: redelivered at once', () => {
    const t = built();
    const { result, tr } = trace(
      t,
      designToSimulation(
        { ...t.design, profile: '4.x' },
        { messages: 1, failure: { kind: 'always' }, profileOptions: {} },
      ),
    );
    expect(tr.delaysMs).toEqual([0, 0, 0, 0]);
    expect(result.ignoredArguments?.map((i) => i.argument)).toEqual([
      'x-delayed-retry-type',
      'x-delayed-retry-min',
      'x-delayed-retry-max',
    ]);
  });
});
