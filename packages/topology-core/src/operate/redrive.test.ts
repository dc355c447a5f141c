import { describe, expect, it } from 'vitest';
import { deadLetter, ordersSnapshot, xDeath } from '../../testing/operateFixtures.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import {
  REDRIVE_COUNT_HEADER,
  fixedRedriveDecision,
  parseRedriveFilter,
  planRedrive,
  redriveContext,
  redriveDecision,
  redriveHeaders,
  routingTopology,
  xDeathNote,
} from './redrive.js';

const ctx310 = redriveContext(routingTopology(ordersSnapshot()), profileForBrokerVersion('3.10.8'));

describe('redriveDecision', () => {
  it('sends a message back along its first-death route when that reaches exactly that queue', () => {
    expect(redriveDecision(deadLetter(0), { kind: 'original' }, ctx310)).toEqual({
      kind: 'move',
      exchange: 'orders',
      routingKey: 'order.created',
      queues: ['orders.work'],
      via: 'first-death-route',
    });
  });

  it('uses the default exchange when the first-death route would fan out or no longer matches', () => {
    const snap = ordersSnapshot();
    const fanOut = routingTopology({
      ...snap,
      bindings: [
        ...snap.bindings,
        { source: 'orders', destination: 'orders.dlq', destination_type: 'queue', routing_key: '#' },
      ],
    });
    const d = redriveDecision(
      deadLetter(0),
      { kind: 'original' },
      redriveContext(fanOut, profileForBrokerVersion('3.10.8')),
    );
    expect(d).toEqual({
      kind: 'move',
      exchange: '',
      routingKey: 'orders.work',
      queues: ['orders.work'],
      via: 'default-exchange',
    });
  });

  it('skips, with the reason, a message without x-death, a vanished queue or exchange, and an unroutable key', () => {
    expect(redriveDecision(deadLetter(0, { xDeath: [] }), { kind: 'original' }, ctx310)).toMatchObject({
      kind: 'skip',
      reason: expect.stringMatching(/no x-death/),
    });
    expect(
      redriveDecision(
        deadLetter(0, { xDeath: [xDeath('gone', 'rejected', 'orders', ['k'])] }),
        { kind: 'original' },
        ctx310,
      ),
    ).toMatchObject({ kind: 'skip', reason: expect.stringMatching(/'gone'.*no longer exists/) });
    expect(redriveDecision(deadLetter(0), { kind: 'exchange', exchange: 'nope' }, ctx310)).toMatchObject({
      kind: 'skip',
      reason: "exchange 'nope' does not exist",
    });
    expect(
      redriveDecision(deadLetter(0), { kind: 'exchange', exchange: 'orders', routingKey: 'invoice.x' }, ctx310),
    ).toMatchObject({ kind: 'skip', reason: expect.stringMatching(/to no queue/) });
    expect(
      redriveDecision(deadLetter(0), { kind: 'exchange', exchange: 'orders.retry', routingKey: 'wait' }, ctx310),
    ).toMatchObject({ kind: 'move', queues: ['orders.wait'], via: 'chosen' });
  });
});

describe('fixedRedriveDecision', () => {
  it('decides once for a chosen exchange and key routed by the key alone, as redriveDecision decides for each message', () => {
    for (const target of [
      { kind: 'exchange', exchange: 'orders.retry', routingKey: 'wait' },
      { kind: 'exchange', exchange: '', routingKey: 'orders.work' },
      { kind: 'exchange', exchange: 'nope', routingKey: 'k' },
      { kind: 'exchange', exchange: 'orders', routingKey: 'invoice.x' },
    ] as const) {
      const fixed = fixedRedriveDecision(target, ctx310);
      expect(fixed).toBeDefined();
      expect(fixed).toEqual(redriveDecision(deadLetter(0), target, ctx310));
    }
  });

  it('leaves to each message what the message decides: original, a key taken from x-death, a headers exchange on the way', () => {
    expect(fixedRedriveDecision({ kind: 'original' }, ctx310)).toBeUndefined();
    expect(fixedRedriveDecision({ kind: 'exchange', exchange: 'orders' }, ctx310)).toBeUndefined();
    const snap = ordersSnapshot();
    const withHeaders = routingTopology({
      ...snap,
      exchanges: [
        ...snap.exchanges,
        { name: 'by-type', type: 'headers', durable: true, auto_delete: false, internal: false, arguments: {} },
      ],
      bindings: [
        ...snap.bindings,
        { source: 'orders', destination: 'by-type', destination_type: 'exchange', routing_key: '#' },
        {
          source: 'by-type',
          destination: 'orders.dlq',
          destination_type: 'queue',
          routing_key: '',
          arguments: { 'x-match': 'any', kind: 'a' },
        },
      ],
    });
    const ctx = redriveContext(withHeaders, profileForBrokerVersion('3.10.8'));
    expect(
      fixedRedriveDecision({ kind: 'exchange', exchange: 'orders', routingKey: 'order.created' }, ctx),
    ).toBeUndefined();
    expect(fixedRedriveDecision({ kind: 'exchange', exchange: 'orders.retry', routingKey: 'wait' }, ctx)).toBeDefined();
  });
});

describe('planRedrive', () => {
  it('predicts a destination per message, counts per destination and skip reason, honours filter and limit', () => {
    const ms = [
      deadLetter(0),
      deadLetter(1, { xDeath: [] }),
      deadLetter(2, { headers: { tenant: 'a' } }),
      deadLetter(3, { headers: { tenant: 'b' } }),
      deadLetter(4),
    ];
    const all = planRedrive({ messages: ms, target: { kind: 'original' } }, ctx310);
    expect(all.moved).toBe(4);
    expect(all.byDestination).toEqual({ 'orders:order.created -> orders.work': 4 });
    expect(Object.values(all.skipped)).toEqual([1]);
    const f = parseRedriveFilter('header=tenant=a');
    expect(f.ok).toBe(true);
    const one = planRedrive(
      { messages: ms, target: { kind: 'original' }, ...(f.ok ? { filter: f.filter } : {}) },
      ctx310,
    );
    expect(one.items.map((i) => i.seq)).toEqual([2]);
    expect(one.filteredOut).toBe(4);
    expect(planRedrive({ messages: ms, target: { kind: 'original' }, limit: 2 }, ctx310).items).toHaveLength(2);
  });

  it('explains what each version does with the copied x-death', () => {
    expect(xDeathNote(profileForBrokerVersion('3.10.8'))).toMatch(/counts on/);
    expect(xDeathNote(profileForBrokerVersion('4.3.6'))).toMatch(/ignores an x-death/);
  });
});

describe('redriveHeaders and filters', () => {
  it('keeps headers and x-death, counts re-drives', () => {
    const m = deadLetter(0, { headers: { [REDRIVE_COUNT_HEADER]: 2, a: 1 } });
    const h = redriveHeaders(m.headers, m.xDeath, Date.UTC(2026, 0, 1));
    expect(h).toMatchObject({ a: 1, [REDRIVE_COUNT_HEADER]: 3, 'x-redrive-last-at-ms': Date.UTC(2026, 0, 1) });
    expect(Array.isArray(h['x-death'])).toBe(true);
  });

  it('names what is wrong with a filter', () => {
    expect(parseRedriveFilter('colour=red')).toEqual({
      ok: false,
      message: expect.stringMatching(/unknown filter "colour"/),
    });
    expect(parseRedriveFilter('queue=')).toMatchObject({ ok: false });
    expect(parseRedriveFilter('cause=a|rejected|')).toEqual({
      ok: true,
      filter: { kind: 'cause', key: 'a|rejected|' },
    });
  });
});

describe('parseRedriveTarget', () => {
  it('reads original, EXCHANGE, EXCHANGE:KEY and :QUEUE', async () => {
    const { parseRedriveTarget } = await import('./redrive.js');
    expect(parseRedriveTarget('original')).toEqual({ ok: true, target: { kind: 'original' } });
    expect(parseRedriveTarget('orders')).toEqual({ ok: true, target: { kind: 'exchange', exchange: 'orders' } });
    expect(parseRedriveTarget('orders:a.b')).toEqual({
      ok: true,
      target: { kind: 'exchange', exchange: 'orders', routingKey: 'a.b' },
    });
    expect(parseRedriveTarget(':q')).toEqual({ ok: true, target: { kind: 'exchange', exchange: '', routingKey: 'q' } });
    expect(parseRedriveTarget(':')).toMatchObject({ ok: false });
  });
});

describe('the message-id filter', () => {
  it('selects one message by its message-id property', () => {
    const f = parseRedriveFilter('message-id=o-2');
    expect(f).toEqual({ ok: true, filter: { kind: 'message-id', id: 'o-2' } });
    const ms = [0, 1, 2].map((i) => ({ ...deadLetter(i), properties: { messageId: `o-${i}` } }));
    const plan = planRedrive(
      { messages: ms, target: { kind: 'original' }, ...(f.ok ? { filter: f.filter } : {}) },
      ctx310,
    );
    expect(plan.items.map((i) => i.seq)).toEqual([2]);
    expect(plan.filteredOut).toBe(2);
  });
});
