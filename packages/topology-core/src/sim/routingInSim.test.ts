import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// rabbitmq-semantics.md §2 "Missing DLX", "DLX configuration", §3, §6 items 24-30, 49-51
describe('publishing and dead-letter routing', () => {
  it('item 50: mandatory + no route -> basic.return; the default exchange with a missing queue too', () => {
    const r = run({
      topology: T.topology(T.exchange('x'), T.queue('q'), T.bind('x', 'q', 'k')),
      steps: [
        S.publish('x', 'nope', 'a', { mandatory: true }),
        S.publish('', 'missing', 'b', { mandatory: true }),
        S.publish('x', 'nope', 'c'),
        S.publish('x', 'k', 'd', { mandatory: true }),
      ],
    });
    expect(r.returned).toEqual(['a', 'b']);
    expect(r.of('unroutable').map((e) => e.body)).toEqual(['a', 'b', 'c']);
    expect(r.left('q')).toEqual(['d']);
  });

  it('item 49: a message routed via an alternate exchange is not returned', () => {
    const r = run({
      topology: T.topology(
        T.exchange('my-direct', 'direct', { ae: 'my-ae' }),
        T.exchange('my-ae', 'fanout'),
        T.queue('Q_unrouted'),
        T.bind('my-ae', 'Q_unrouted'),
      ),
      steps: [S.publish('my-direct', 'key2', 'm', { mandatory: true })],
    });
    expect(r.returned).toEqual([]);
    expect(r.left('Q_unrouted')).toEqual(['m']);
  });

  it('items 26-27: CC and BCC route copies at publish; BCC is removed; the dead letter follows RK + CC + BCC', () => {
    const topo = T.topology(T.exchange('X'), T.queue('Q', { dlx: 'X' }), T.queue('D'), T.bind('X', 'D', 'D'));
    const cc = run({
      topology: topo,
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm', { headers: { CC: ['D'] } })],
    });
    expect(cc.left('D')).toEqual(['m', 'm']);
    expect(cc.observed.final['D']?.[0]?.headers).toEqual({ CC: ['D'] });
    expect(cc.observed.final['D']?.[1]?.['x-death']?.[0]?.['routing-keys']).toEqual(['Q', 'D']);
    const bcc = run({
      topology: topo,
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm', { headers: { BCC: ['D'] } })],
    });
    expect(bcc.left('D')).toEqual(['m', 'm']);
    expect(bcc.observed.final['D']?.[0]?.headers).toBeUndefined();
    expect(bcc.observed.deliveries['Q']?.[0]?.headers).toBeUndefined();
    expect(bcc.observed.final['D']?.[1]?.['x-death']?.[0]?.['routing-keys']).toEqual(['Q']);
  });

  it('item 24: a missing DLX drops the message', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { dlx: 'dlx-exchange-2' })),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.of('dropped').map((e) => e.why)).toEqual(['missing-dlx']);
  });

  it('item 25: a DLX without DLRK and no matching binding drops it', () => {
    const r = run({
      topology: T.topology(T.exchange('X'), T.queue('Q', { dlx: 'X' }), T.queue('D'), T.bind('X', 'D', 'D')),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.of('dropped').map((e) => e.why)).toEqual(['no-route']);
    expect(r.left('D')).toEqual([]);
  });

  it('item 51: the DLX alternate exchange takes an unroutable dead letter', () => {
    const r = run({
      topology: T.topology(
        T.exchange('X', 'direct', { ae: 'AE' }),
        T.exchange('AE', 'fanout'),
        T.queue('Q', { dlx: 'X', dlrk: 'nothing' }),
        T.queue('A'),
        T.bind('AE', 'A'),
      ),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(r.left('A')).toEqual(['m']);
  });

  it('items 28-30: a policy DLX applies when no argument is set; arguments win over the policy', () => {
    const parts = [
      T.exchange('X'),
      T.exchange('Y'),
      T.queue('D'),
      T.queue('E'),
      T.bind('X', 'D', 'D'),
      T.bind('Y', 'E', 'E'),
    ];
    const pol = T.policy('dl', '^Q$', { 'dead-letter-exchange': 'X', 'dead-letter-routing-key': 'D' });
    const byPolicy = run({
      topology: T.topology(T.queue('Q'), ...parts, pol),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(byPolicy.left('D')).toEqual(['m']);
    const byArgs = run({
      topology: T.topology(T.queue('Q', { dlx: 'Y', dlrk: 'E' }), ...parts, pol),
      consumers: [C.script('Q', A.reject)],
      steps: [S.publish('', 'Q', 'm')],
    });
    expect(byArgs.left('E')).toEqual(['m']);
    expect(byArgs.left('D')).toEqual([]);
  });

  it('item 43: a headers-exchange DLX routes on x-first-death-* with all-with-x / any-with-x', () => {
    const topo = T.topology(
      T.exchange('H', 'headers'),
      T.queue('Q1', { ttl: 1, dlx: 'H' }),
      T.queue('Q2', { dlx: 'H' }),
      T.queue('D1'),
      T.queue('D2'),
      T.bind('H', 'D1', '', {
        'x-match': 'all-with-x',
        'x-first-death-reason': 'expired',
        'x-first-death-queue': 'Q1',
      }),
      T.bind('H', 'D2', '', { 'x-match': 'any-with-x', 'x-first-death-reason': 'rejected' }),
    );
    const r = run({
      topology: topo,
      consumers: [C.script('Q2', A.reject)],
      steps: [S.publish('', 'Q1', 'a'), S.publish('', 'Q2', 'b')],
    });
    expect(r.left('D1')).toEqual(['a']);
    expect(r.left('D2')).toEqual(['b']);
  });

  it('item 45: chain with CC/BCC and expiration 0 records both deaths (3.10: no CC header, no x-last-death)', () => {
    const topo = T.topology(
      T.queue('Q1', { dlx: '', dlrk: 'Q2' }),
      T.queue('Q2', { ttl: 2500, dlx: '', dlrk: 'Q3' }),
      T.queue('Q3'),
    );
    const r = run({
      topology: topo,
      steps: [
        S.publish('', 'Q1', 'm', { expiration: '0', headers: { CC: ['cc 1', 'cc 2'], BCC: ['bcc 1', 'bcc 2'] } }),
      ],
    });
    const m = r.observed.final['Q3']?.[0];
    expect(m?.['x-death']).toEqual([
      { queue: 'Q2', reason: 'expired', count: 1, exchange: '', 'routing-keys': ['Q2'] },
      {
        queue: 'Q1',
        reason: 'expired',
        count: 1,
        exchange: '',
        'routing-keys': ['Q1', 'cc 1', 'cc 2'],
        'original-expiration': '0',
      },
    ]);
    expect(m?.headers).toEqual({
      'x-first-death-exchange': '',
      'x-first-death-queue': 'Q1',
      'x-first-death-reason': 'expired',
    });
    const r4 = run({
      topology: topo,
      profile: '4.x',
      steps: [S.publish('', 'Q1', 'm', { expiration: '0', headers: { CC: ['cc 1', 'cc 2'] } })],
    });
    expect(r4.observed.final['Q3']?.[0]?.headers).toMatchObject({ CC: ['cc 1', 'cc 2'], 'x-last-death-queue': 'Q2' });
  });
});

describe('internal exchanges', () => {
  it('a client cannot publish to an internal exchange, but it routes as an exchange-to-exchange destination', () => {
    const topo = T.topology(
      T.exchange('front', 'fanout'),
      { ...T.exchange('inner', 'fanout'), internal: true },
      T.queue('q'),
      T.bindX('front', 'inner'),
      T.bind('inner', 'q'),
    );
    const r = run({ topology: topo, steps: [S.publish('inner', '', 'direct'), S.publish('front', '', 'via-front')] });
    expect(r.left('q')).toEqual(['via-front']);
    expect(r.of('dropped').map((e) => [e.body, e.why])).toEqual([['direct', 'no-route']]);
  });
});
