import { describe, expect, it } from 'vitest';
import { causeOf, firstDeath, groupByCause } from './deadLetter.js';
import { deadLetter, xDeath } from '../../testing/operateFixtures.js';
import { browseEffect } from './browseEffect.js';
import { profileForBrokerVersion } from './brokerVersion.js';

describe('firstDeath', () => {
  it('reads x-first-death-* and the matching x-death entry for keys and time', () => {
    const m = deadLetter(0, {
      xDeath: [
        xDeath('orders.wait', 'expired', 'orders.retry', ['wait'], 3, 1_700_000_100),
        xDeath('orders.work', 'rejected', 'orders', ['order.created'], 3, 1_700_000_000),
      ],
    });
    expect(firstDeath(m)).toEqual({
      queue: 'orders.work',
      reason: 'rejected',
      exchange: 'orders',
      routingKeys: ['order.created'],
      time: 1_700_000_000,
      count: 3,
    });
  });

  it('falls back to the oldest x-death entry without the headers, and to nothing without x-death', () => {
    const m = { headers: {}, xDeath: [xDeath('b', 'expired', 'x', ['k2']), xDeath('a', 'rejected', 'x', ['k1'])] };
    expect(firstDeath(m)?.queue).toBe('a');
    expect(firstDeath({ headers: {}, xDeath: [] })).toBeUndefined();
  });
});

describe('groupByCause', () => {
  it('groups by first-death queue + reason + the first line of an exception header, largest first', () => {
    const boom = { 'x-exception-message': 'NullPointerException: order.id\n\tat Foo.bar' };
    const ms = [
      deadLetter(0, { headers: boom }),
      deadLetter(1, { headers: { 'x-exception-message': 'NullPointerException: order.id\n\tat Other.line' } }),
      deadLetter(2),
      deadLetter(3, { xDeath: [xDeath('orders.work', 'expired', 'orders', ['order.created'])] }),
      deadLetter(4, { xDeath: [] }),
    ];
    const g = groupByCause(ms);
    expect(g.map((x) => [x.key, x.count])).toEqual([
      ['orders.work|rejected|NullPointerException: order.id', 2],
      ['orders.work|expired|', 1],
      ['orders.work|rejected|', 1],
      ['|no x-death|', 1],
    ]);
    expect(g[0]?.seqs).toEqual([0, 1]);
    expect(causeOf(ms[4]!).reason).toBe('no x-death');
  });
});

describe('browseEffect', () => {
  it('refuses a quorum queue before 4.3 unless insisted, and says why', () => {
    const e = browseEffect('quorum', profileForBrokerVersion('4.2.0'));
    expect(e.refuseUnlessInsist).toBe(true);
    expect(e.message).toMatch(/delivery limit/);
    expect(browseEffect('quorum', profileForBrokerVersion('3.10.8')).refuseUnlessInsist).toBe(true);
    expect(browseEffect('quorum', profileForBrokerVersion('4.3.6')).refuseUnlessInsist).toBe(false);
    expect(browseEffect('classic', profileForBrokerVersion('3.10.8')).message).toMatch(/redelivered/);
    expect(browseEffect('stream', profileForBrokerVersion('3.10.8')).kind).toBe('none');
  });
});
