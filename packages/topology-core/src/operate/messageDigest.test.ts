import { describe, expect, it } from 'vitest';
import { deadLetter, ordersSnapshot, xDeath } from '../../testing/operateFixtures.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import { messageDigest } from './messageDigest.js';
import { matchesFilter, parseRedriveFilter, planRedrive, redriveContext, routingTopology } from './redrive.js';

const ctx = redriveContext(routingTopology(ordersSnapshot()), profileForBrokerVersion('3.10.8'));
const dead = (seq: number, body: string) =>
  deadLetter(seq, { body, xDeath: [xDeath('orders.work', 'rejected', 'orders', ['order.created'])] });

describe('one message without a message-id: its position and digest', () => {
  it('the digest is the same after a JSON round trip (browser and server agree) and differs with the body or headers', () => {
    const m = deadLetter(3, { body: '{"amount":12}', headers: { b: 1, a: 'x' } });
    expect(messageDigest(JSON.parse(JSON.stringify(m)))).toBe(messageDigest(m));
    expect(messageDigest({ ...m, headers: Object.fromEntries(Object.entries(m.headers).reverse()) })).toBe(
      messageDigest(m),
    );
    expect(messageDigest({ ...m, body: '{"amount":13}' })).not.toBe(messageDigest(m));
    expect(messageDigest({ ...m, headers: { ...m.headers, a: 'y' } })).not.toBe(messageDigest(m));
    expect(messageDigest(m)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('picks the one message at its position with its digest; another message there (the queue changed) moves nothing', () => {
    const ms = [dead(0, 'a'), dead(1, 'b'), dead(2, 'c')];
    const f = parseRedriveFilter(`message=1:${messageDigest(ms[1]!)}`);
    if (!f.ok) throw new Error(f.message);
    expect(
      planRedrive({ messages: ms, target: { kind: 'original' }, filter: f.filter }, ctx).items.map((i) => i.seq),
    ).toEqual([1]);
    // the head was taken meanwhile: position 1 now holds "c"
    const shifted = [dead(0, 'b'), dead(1, 'c')];
    expect(shifted.some((m) => matchesFilter(m, f.filter))).toBe(false);
    expect(parseRedriveFilter('message=1:zz')).toMatchObject({
      ok: false,
      message: expect.stringContaining('POSITION:DIGEST'),
    });
  });
});
