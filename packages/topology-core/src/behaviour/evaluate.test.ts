import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  chooseAction,
  evalCondition,
  evalCounter,
  evalValue,
  planRepublish,
  processingSucceeds,
  type DeliveryView,
} from './evaluate.js';

const view = (o: Partial<DeliveryView> = {}): DeliveryView => ({
  body: 'b',
  headers: {},
  redelivered: false,
  routingKey: 'rk',
  exchange: 'x',
  attempt: 1,
  ...o,
});
const xDeath = [
  { queue: 'work', reason: 'rejected' as const, count: 2, exchange: 'x', 'routing-keys': ['rk'] },
  { queue: 'wait', reason: 'expired' as const, count: 3, exchange: 'x', 'routing-keys': ['rk'] },
];

describe('behaviour evaluation', () => {
  it('counters', () => {
    const d = view({ attempt: 4, headers: { 'x-retries': 2, 'x-delivery-count': 5, s: '7' }, xDeath });
    expect(evalCounter({ kind: 'attempt' }, d)).toBe(4);
    expect(evalCounter({ kind: 'header', name: 'x-retries' }, d)).toBe(2);
    expect(evalCounter({ kind: 'header', name: 's' }, d)).toBe(7);
    expect(evalCounter({ kind: 'header', name: 'none' }, d)).toBe(0);
    expect(evalCounter({ kind: 'deathCount', queue: 'work', reason: 'rejected' }, d)).toBe(2);
    expect(evalCounter({ kind: 'deathCount' }, d)).toBe(5);
    expect(evalCounter({ kind: 'deathCount', reason: 'expired' }, d)).toBe(3);
    expect(evalCounter({ kind: 'deliveryCount' }, d)).toBe(5);
  });

  it('values: curve, exponential, counter, fromHeader, literals', () => {
    const d = view({ headers: { n: 3, q: 'orders' } });
    const by = { kind: 'header' as const, name: 'n' };
    expect(evalValue({ kind: 'curve', values: [10, 20], by }, d)).toBe(20);
    expect(evalValue({ kind: 'curve', values: [10, 20], by: { kind: 'header', name: 'zero' } }, d)).toBe(10);
    expect(evalValue({ kind: 'exponential', initialMs: 100, multiplier: 2, maxMs: 300, by }, d)).toBe(300);
    expect(evalValue({ kind: 'exponential', initialMs: 100, multiplier: 2, maxMs: 1000, by }, d)).toBe(400);
    expect(evalValue({ kind: 'counter', by, add: 1 }, d)).toBe(4);
    expect(evalValue({ kind: 'fromHeader', name: 'q' }, d)).toBe('orders');
    expect(evalValue(5, d)).toBe(5);
    expect(evalValue('s', d)).toBe('s');
  });

  it('conditions', () => {
    const d = view({ redelivered: true, headers: { h: 1 }, attempt: 2 });
    expect(evalCondition({ kind: 'lt', counter: { kind: 'attempt' }, value: 3 }, d)).toBe(true);
    expect(evalCondition({ kind: 'gte', counter: { kind: 'attempt' }, value: 3 }, d)).toBe(false);
    expect(evalCondition({ kind: 'redelivered', is: true }, d)).toBe(true);
    expect(evalCondition({ kind: 'hasHeader', name: 'h', is: false }, d)).toBe(false);
    expect(evalCondition(undefined, d)).toBe(true);
  });

  it('failure models', () => {
    const ctx = { attempt: 1, body: 'b', messageIndex: 3, random: () => 0.3 };
    expect(processingSucceeds(undefined, ctx)).toBe(true);
    expect(processingSucceeds({ kind: 'always' }, ctx)).toBe(false);
    expect(processingSucceeds({ kind: 'failFirst', n: 1 }, ctx)).toBe(false);
    expect(processingSucceeds({ kind: 'failFirst', n: 1 }, { ...ctx, attempt: 2 })).toBe(true);
    expect(processingSucceeds({ kind: 'percent', percent: 50 }, ctx)).toBe(false);
    expect(processingSucceeds({ kind: 'percent', percent: 20 }, ctx)).toBe(true);
    expect(processingSucceeds({ kind: 'poison', bodies: ['b'] }, ctx)).toBe(false);
    expect(processingSucceeds({ kind: 'poison', every: 3 }, ctx)).toBe(false);
    expect(processingSucceeds({ kind: 'poison', every: 2 }, ctx)).toBe(true);
  });

  it('chooseAction: script repeats its last action; worker picks the first matching rule; failures default to reject', () => {
    const d = view({ attempt: 3 });
    expect(
      chooseAction({ kind: 'script', actions: [{ kind: 'requeue' }, { kind: 'ack' }] }, d, { scriptIndex: 5 }),
    ).toEqual({ kind: 'ack' });
    const worker = {
      kind: 'worker' as const,
      onFailure: [
        {
          when: { kind: 'lt' as const, counter: { kind: 'attempt' as const }, value: 3 },
          then: { kind: 'requeue' as const },
        },
      ],
    };
    expect(chooseAction(worker, d, { ok: false })).toEqual({ kind: 'reject' });
    expect(chooseAction(worker, view({ attempt: 1 }), { ok: false })).toEqual({ kind: 'requeue' });
    expect(chooseAction(worker, d, { ok: true })).toEqual({ kind: 'ack' });
    expect(chooseAction({ kind: 'router', rules: [] }, d, {})).toEqual({ kind: 'ack' });
  });

  it('backoff and republish plans', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs({ initialMs: 100, multiplier: 3, maxMs: 1000 }, a))).toEqual([
      100, 300, 900, 1000,
    ]);
    const p = planRepublish(
      {
        kind: 'republish',
        exchange: 'err',
        exceptionHeaders: true,
        headers: { a: 1, gone: { kind: 'fromHeader', name: 'missing' } },
        expiration: 1500.7,
      },
      view({ headers: { keep: 'y', gone: 'z' } }),
    );
    expect(p).toMatchObject({ exchange: 'err', routingKey: 'rk', expiration: '1500', keepXDeath: true });
    expect(p.headers).toMatchObject({ keep: 'y', a: 1, 'x-original-exchange': 'x', 'x-original-routingKey': 'rk' });
    expect(p.headers['gone']).toBeUndefined();
    expect(
      planRepublish(
        { kind: 'republish', exchange: '', copyHeaders: false, routingKeyFromHeader: 'q' },
        view({ headers: { q: 'orders' } }),
      ),
    ).toMatchObject({ routingKey: 'orders', headers: {}, keepXDeath: false });
  });
});
