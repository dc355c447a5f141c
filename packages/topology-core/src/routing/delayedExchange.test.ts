import { describe, expect, it } from 'vitest';
import type { AmqpTable } from '../model/definitions.js';
import { A, C, S, T, run } from '../../testing/builders.js';
import { delayOf } from './delayedExchange.js';

// rabbitmq-semantics.md §4 (plugin commit e6c8b16) and §6 items 52-55; conformance README notes
describe('x-delayed-message exchange', () => {
  const topo = (ae?: string) =>
    T.topology(
      T.exchange('d', 'x-delayed-message', { delayedType: 'direct', ...(ae ? { ae } : {}) }),
      T.exchange('ae', 'fanout'),
      T.queue('Q'),
      T.queue('A'),
      T.bind('d', 'Q', 'k'),
      T.bind('ae', 'A'),
    );

  it('x-delay parsing: integers, numeric strings, floats truncated; <= 0 or > 2^32-1 route at once', () => {
    expect(delayOf({ 'x-delay': 1000 })).toBe(1000);
    expect(delayOf({ 'x-delay': '250' })).toBe(250);
    expect(delayOf({ 'x-delay': 10.9 })).toBe(10);
    expect(delayOf({})).toBeUndefined();
    expect(delayOf({ 'x-delay': 0 })).toBeUndefined();
    expect(delayOf({ 'x-delay': -5 })).toBeUndefined();
    expect(delayOf({ 'x-delay': 4294967296 })).toBeUndefined();
    expect(delayOf({ 'x-delay': 'soon' })).toBeUndefined();
  });

  it('item 52: delivered when the delay ends, keeping x-delay as published (recorded: nanit-4)', () => {
    const r = run({
      topology: topo(),
      consumers: [C.script('Q', A.ack)],
      steps: [S.publish('d', 'k', 'm', { headers: { 'x-delay': 1000 } })],
    });
    const d = r.of('delivered');
    expect(d.map((e) => e.t)).toEqual([1000]);
    expect(d[0]?.headers).toEqual({ 'x-delay': 1000 });
    expect(r.of('delayed').map((e) => [e.delayMs, e.until])).toEqual([[1000, 1000]]);
  });

  it('item 53: absent, 0 or negative x-delay routes at once', () => {
    for (const h of [{}, { 'x-delay': 0 }, { 'x-delay': -5 }] as AmqpTable[]) {
      const r = run({
        topology: topo(),
        consumers: [C.script('Q', A.ack)],
        steps: [S.publish('d', 'k', 'm', { headers: h })],
      });
      expect(r.of('delivered').map((e) => e.t)).toEqual([0]);
    }
  });

  it('delayed messages are routed in due order', () => {
    const r = run({
      topology: topo(),
      consumers: [C.script('Q', A.ack)],
      steps: [
        S.publish('d', 'k', 'late', { headers: { 'x-delay': 300 } }),
        S.publish('d', 'k', 'early', { headers: { 'x-delay': 100 } }),
        S.publish('d', 'k', 'tie', { headers: { 'x-delay': 300 } }),
      ],
    });
    expect(r.delivered('Q')).toEqual(['early', 'late', 'tie']);
  });

  it('item 55: mandatory is returned at once and still delivered later; an AE gets a copy at once', () => {
    const r = run({
      topology: topo(),
      consumers: [C.script('Q', A.ack)],
      steps: [S.publish('d', 'k', 'm', { headers: { 'x-delay': 500 }, mandatory: true })],
    });
    expect(r.returned).toEqual(['m']);
    expect(r.of('returned')[0]?.t).toBe(0);
    expect(r.of('delivered').map((e) => e.t)).toEqual([500]);
    const withAe = run({
      topology: topo('ae'),
      steps: [S.publish('d', 'k', 'm', { headers: { 'x-delay': 500 }, mandatory: true })],
    });
    expect(withAe.returned).toEqual([]);
    expect(withAe.left('A')).toEqual(['m']);
    expect(withAe.left('Q')).toEqual(['m']);
  });

  it('nothing matching when the delay ends: dropped (or to the AE)', () => {
    const r = run({ topology: topo(), steps: [S.publish('d', 'nokey', 'm', { headers: { 'x-delay': 50 } })] });
    expect(r.of('dropped').map((e) => [e.why, e.t])).toEqual([['no-route', 50]]);
  });

  it('queue TTL starts when the message is enqueued, after the delay', () => {
    const t = T.topology(
      T.exchange('d', 'x-delayed-message', { delayedType: 'fanout' }),
      T.queue('Q', { ttl: 100 }),
      T.bind('d', 'Q'),
    );
    const r = run({ topology: t, steps: [S.publish('d', '', 'm', { headers: { 'x-delay': 1000 } })] });
    expect(r.of('expired').map((e) => e.t)).toEqual([1100]);
  });

  it('the plugin can be left out: then the exchange does not exist', () => {
    const r = run({ topology: topo(), plugins: [], steps: [S.publish('d', 'k', 'm', { headers: { 'x-delay': 50 } })] });
    expect(r.of('dropped').map((e) => e.why)).toEqual(['no-route']);
  });

  // issue 9 point 7b: on 3.10.8 with the plugin 3.10.2 a message dead-lettered into a delayed
  // exchange arrives with x-delay negated (-150); a published one keeps 150 (item 52)
  describe('dead-lettered into a delayed exchange', () => {
    const t = T.topology(
      T.exchange('d', 'x-delayed-message', { delayedType: 'fanout' }),
      T.queue('work', { dlx: 'd' }),
      T.queue('Q'),
      T.bind('d', 'Q'),
    );
    const input = {
      topology: t,
      consumers: [C.script('work', A.reject), C.script('Q', A.ack)],
      steps: [S.publish('', 'work', 'm', { headers: { 'x-delay': 150 } })],
    };

    it('3.10: held for the delay, then delivered with x-delay -150', () => {
      const r = run(input);
      const d = r.of('delivered').filter((e) => e.queue === 'Q');
      expect(d.map((e) => [e.t, e.headers['x-delay']])).toEqual([[150, -150]]);
    });

    it('4.x: not recorded with the plugin there; the header is kept', () => {
      const r = run({ ...input, profile: '4.x' });
      expect(
        r
          .of('delivered')
          .filter((e) => e.queue === 'Q')
          .map((e) => e.headers['x-delay']),
      ).toEqual([150]);
    });
  });
});
