import { describe, expect, it } from 'vitest';
import { T } from '../../testing/builders.js';
import { designOf } from '../../testing/upgradeFixtures.js';
import { assumedConsumers, assumedPublishers, describeAssumedRoles, withAssumedActors } from './assumedConsumers.js';
import { lintDesign } from './lintDesign.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { computeBudget } from '../budget/budget.js';
import { buildTemplate } from '../templates/registry.js';

const HOUR = 3_600_000;

/** work.q (TTL `workTtl`, a job timeout) -> jobs (key wait) -> wait.q (5 s) -> jobs (key work) -> work.q: one exchange both ways, as in a real file. */
const jobTimeout = (workTtl: number) =>
  T.topology(
    T.exchange('jobs'),
    T.queue('work.q', { dlx: 'jobs', dlrk: 'wait', ttl: workTtl }),
    T.queue('wait.q', { dlx: 'jobs', dlrk: 'work', ttl: 5000 }),
    T.bind('jobs', 'work.q', 'work'),
    T.bind('jobs', 'wait.q', 'wait'),
  );

/** service queues with a 24 h TTL, dead-lettering to one DLX whose queue nobody feeds: the issue-38 files' shape */
const services = (n: number) =>
  T.topology(
    T.exchange('events', 'topic'),
    T.exchange('dead', 'fanout'),
    ...Array.from({ length: n }, (_, i) => T.queue(`svc${i}`, { ttl: 24 * HOUR, dlx: 'dead' })),
    T.queue('dead-letters'),
    ...Array.from({ length: n }, (_, i) => T.bind('events', `svc${i}`, `svc${i}.#`)),
    T.bind('dead', 'dead-letters'),
  );

describe('the consumer assumption', () => {
  it('a TTL queue clients publish to, whose dead letters only rest, is a work queue (its TTL expires what nobody took)', () => {
    const a = assumedConsumers(services(3));
    expect(a.roles).toEqual({ svc0: 'work', svc1: 'work', svc2: 'work', 'dead-letters': 'parking' });
    expect(a.reasons.svc0).toBe(
      'a TTL (24 h) and a dead-letter route, fed by clients, its dead letters resting in dead-letters (nothing sends them back): a work queue whose TTL expires what no consumer took in time',
    );
    // said aloud with the rest of the assumption
    expect(describeAssumedRoles(a).join('\n')).toContain('svc0: work, a TTL (24 h)');
    // simulate --always: the worker fails each attempt and the message dead-letters into the DLQ (it had 0 attempts)
    const { design } = withAssumedActors(designOf('svc', services(3)));
    const b = computeBudget({ ...design, publishers: [design.publishers[0]!] }, { kind: 'always' });
    expect([b.attempts, b.outcome]).toEqual([1, { kind: 'parked', queue: 'dead-letters' }]);
  });

  it('a delay before work stays a wait queue: its dead letters reach a queue clients publish to, or one that moves on', () => {
    for (const id of ['dlx-ttl-wait-queue', 'chained-ttl', 'binary-delay-levels']) {
      const r = buildTemplate(id);
      if (!r.ok) throw new Error(id);
      const roles = assumedConsumers(r.template.design.topology).roles;
      const waits = r.template.design.topology.queues.filter((q) => q.arguments?.['x-message-ttl'] !== undefined);
      expect(
        waits.map((q) => roles[q.name]),
        id,
      ).toEqual(waits.map(() => 'wait'));
    }
  });

  it("a TTL far longer than its loop partner's is a job timeout: a work queue with a rejecting worker", () => {
    const a = assumedConsumers(jobTimeout(8 * HOUR));
    expect(a.roles).toEqual({ 'work.q': 'work', 'wait.q': 'wait' });
    expect(a.reasons['work.q']).toContain("far longer than its loop partner wait.q's (5 s)");
    expect(a.consumers.map((c) => c.queue)).toEqual(['work.q']);
    // lint: no expiry-only cycle (the worker keeps it cycling every 5 s), an unbounded retry loop instead
    const ids = lintDesign(designOf('jt', jobTimeout(8 * HOUR), [], [], '3.10')).map((f) => f.id);
    expect(ids).not.toContain('automatic-cycle-dropped');
    expect(ids).toContain('dead-letter-cycle-unbounded');
  });

  it('two TTLs of the same order are two wait queues (an expiry-only loop)', () => {
    const a = assumedConsumers(jobTimeout(20_000));
    expect(a.roles).toEqual({ 'work.q': 'wait', 'wait.q': 'wait' });
    expect(lintDesign(designOf('jt', jobTimeout(20_000), [], [], '3.10')).map((f) => f.id)).toContain(
      'automatic-cycle-dropped',
    );
  });

  it('a DLQ that a catch-all policy gives a DLX parks what the work queues dead-letter (never a rejecting worker)', () => {
    const t = T.topology(
      T.exchange('app'),
      T.exchange('dlx', 'fanout'),
      T.queue('orders'),
      T.queue('orders.dlq'),
      T.bind('app', 'orders', 'orders'),
      T.bind('dlx', 'orders.dlq'),
      T.policy('dead-letter-all', '.*', { 'dead-letter-exchange': 'dlx' }),
    );
    const a = assumedConsumers(t);
    expect(a.roles).toEqual({ orders: 'work', 'orders.dlq': 'parking' });
    expect(a.reasons['orders.dlq']).toContain('policy dead-letter-all');
    // the failing message rests in the DLQ, as on the broker (not dropped by a rejecting DLQ worker)
    const d = withAssumedActors(designOf('p', t)).design;
    const r = simulate(designToSimulation(d, { messages: 1, failure: { kind: 'always' }, seed: 1 }));
    expect(r.events.filter((e) => e.kind === 'dropped')).toEqual([]);
    expect(r.events.some((e) => e.kind === 'enqueued' && e.queue === 'orders.dlq')).toBe(true);
    expect(r.events.some((e) => e.kind === 'delivered' && e.queue === 'orders.dlq')).toBe(false);
  });

  it('a queue nothing routes to is published to by name through the default exchange', () => {
    const t = T.topology(T.exchange('app'), T.queue('bound'), T.queue('by-name'), T.bind('app', 'bound', 'k'));
    const pubs = assumedPublishers(t, assumedConsumers(t));
    expect(pubs.map((p) => [p.exchange, p.routingKey])).toEqual([
      ['app', 'k'],
      ['', 'by-name'],
    ]);
    expect(
      withAssumedActors(designOf('n', T.topology(T.queue('only')))).assumed?.publishers.map((p) => p.routingKey),
    ).toEqual(['only']);
  });

  it('a stream nothing routes to is written to by its name (the operator stream-queue example): a parking place, still fed', () => {
    const t = T.topology(
      T.queue('my_stream_queue', { stream: true }),
      T.queue('dlq'),
      T.exchange('dead'),
      T.bind('dead', 'dlq'),
    );
    expect(assumedConsumers(t).roles).toMatchObject({ my_stream_queue: 'parking' });
    expect(assumedPublishers(t, assumedConsumers(t)).map((p) => [p.exchange, p.routingKey])).toEqual([
      ['dead', ''],
      ['', 'my_stream_queue'],
    ]);
  });

  it('says the assumption in a few lines, the surprising roles with why', () => {
    const lines = describeAssumedRoles(assumedConsumers(jobTimeout(8 * HOUR)));
    expect(lines[0]).toMatch(/^1 work queue\(s\).*: work\.q$/);
    expect(lines.some((l) => l.startsWith('work.q: work, ') && l.includes('job timeout'))).toBe(true);
  });
});

describe('ttl-queue-without-exit on a definitions file', () => {
  it('a TTL queue with no DLX is said (info): what nobody takes in time is dropped; a queue with a DLX is not', () => {
    const t = T.topology(
      T.exchange('app'),
      T.queue('events', { ttl: 60_000 }),
      T.queue('wait', { ttl: 1000, dlx: 'app' }),
      T.bind('app', 'events', 'e'),
      T.bind('app', 'wait', 'w'),
    );
    const f = lintDesign(designOf('d', t)).filter((x) => x.id === 'ttl-queue-without-exit');
    expect(f.map((x) => [x.severity, x.objects])).toEqual([['info', ['queue:events']]]);
    expect(f[0]!.message).toContain('dropped without a trace');
  });
});

describe('a parking exchange that no queue dead-letters into', () => {
  it('is named in the unbounded loop finding: nothing leads the loop there', () => {
    const t = T.topology(
      T.exchange('jobs'),
      T.exchange('jobs.parking', 'fanout'),
      T.queue('work.q', { dlx: 'jobs', dlrk: 'wait' }),
      T.queue('wait.q', { dlx: 'jobs', dlrk: 'work', ttl: 5000 }),
      T.queue('jobs.parked'),
      T.bind('jobs', 'work.q', 'work'),
      T.bind('jobs', 'wait.q', 'wait'),
      T.bind('jobs.parking', 'jobs.parked'),
    );
    const f = lintDesign(designOf('p', t)).find((x) => x.id === 'dead-letter-cycle-unbounded');
    expect(f?.message).toContain(
      "The parking exchange jobs.parking (to jobs.parked) is no queue's dead-letter exchange",
    );
    // once a queue dead-letters there, it is an exit of the topology and not said
    const withExit = {
      ...t,
      queues: t.queues
        .map((q) => (q.name === 'wait.q' ? T.queue('wait.q', { dlx: 'jobs', dlrk: 'work', ttl: 5000, args: {} }) : q))
        .concat(T.queue('over', { dlx: 'jobs.parking' })),
    };
    expect(
      lintDesign(designOf('p', withExit)).find((x) => x.id === 'dead-letter-cycle-unbounded')?.message ?? '',
    ).not.toContain('jobs.parking');
  });
});
