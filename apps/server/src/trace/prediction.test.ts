import { describe, expect, it } from 'vitest';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { bindQ, design as designOf, retryLoopDesign } from '../http/testing.js';
import { compareTrace, predict } from './prediction.js';

/** the retry loop with a worker without a failure model of its own: the request's applies */
function loopDesign(opts: Parameters<typeof retryLoopDesign>[1]) {
  const loop = retryLoopDesign('cmp', opts);
  return {
    ...loop,
    consumers: loop.consumers.map((c) =>
      c.behaviour.kind === 'worker' ? { ...c, behaviour: { ...c.behaviour, failure: undefined } } : c,
    ),
  };
}
const design = loopDesign({ ttl: 100, maxRetries: 1 });
const failure = { kind: 'failFirst', n: 1 } as const;
const predicted = predict(design, { messages: 2, failure }).events;

/** the prediction as if it had happened live, with `edit` applied to one message's events */
function live(edit: (events: SimEvent[]) => SimEvent[] = (e) => e, msgId = 'p1-1'): SimEvent[] {
  const mine = predicted.filter((e) => e.msgId === msgId);
  return [...predicted.filter((e) => e.msgId !== msgId), ...edit(mine)];
}

describe('compareTrace', () => {
  it('the prediction matches itself', () => {
    const c = compareTrace(predicted, live(), { complete: true, published: 2 });
    expect(c).toMatchObject({ messagesCompared: 2, matching: 2 });
    expect(c.firstDifference).toBeUndefined();
  });

  it('uses the failure model: failFirst 1 retries once, then acks', () => {
    const kinds = predicted
      .filter((e) => e.msgId === 'p1-1' && e.kind === 'processed')
      .map((e) => e.kind === 'processed' && e.ok);
    expect(kinds).toEqual([false, true]);
  });

  it('a message dropped live but predicted acked differs, at the hop where it was lost', () => {
    const dropped = live((ev) => {
      // the copy dead-lettered from the wait queue found no binding: routed nowhere, dropped
      const i = ev.findIndex(
        (e) =>
          e.kind === 'routed' && e.exchange === 'work' && ev.slice(0, ev.indexOf(e)).some((x) => x.kind === 'expired'),
      );
      const r = ev[i] as Extract<SimEvent, { kind: 'routed' }>;
      return [
        ...ev.slice(0, i),
        { ...r, queues: [] },
        {
          kind: 'unroutable',
          t: r.t,
          seq: r.seq + 0.1,
          msgId: r.msgId,
          body: r.body,
          exchange: 'work',
          routingKeys: r.routingKeys,
        },
        { kind: 'dropped', t: r.t, seq: r.seq + 0.2, msgId: r.msgId, body: r.body, why: 'no-route', exchange: 'work' },
      ];
    });
    const c = compareTrace(predicted, dropped, { complete: true, published: 2 });
    expect(c.matching).toBe(1);
    expect(c.firstDifference).toMatchObject({
      msgId: 'p1-1',
      what: 'routing',
      where: { exchange: 'work' },
      actual: 'routed work -> []',
      predicted: 'routed work -> [work.q]',
    });
  });

  it('a different x-death count or reason on a delivery differs', () => {
    const other = live((ev) =>
      ev.map((e) =>
        e.kind === 'delivered' && e.xDeath?.length
          ? { ...e, xDeath: e.xDeath.map((d) => ({ ...d, count: d.count + 1 })) }
          : e,
      ),
    );
    const c = compareTrace(predicted, other, { complete: true, published: 2 });
    expect(c.firstDifference).toMatchObject({ what: 'milestone', where: { queue: 'work.q' } });
    expect(c.firstDifference?.actual).toMatch(/x-death \[.*x2/);
  });

  it('a different order within a message differs', () => {
    const swapped = live((ev) => {
      const a = ev.findIndex((e) => e.kind === 'rejected');
      const b = ev.findIndex((e) => e.kind === 'dead-lettered');
      const out = [...ev];
      [out[a], out[b]] = [out[b]!, out[a]!];
      return out;
    });
    expect(compareTrace(predicted, swapped, { complete: true, published: 2 }).matching).toBe(1);
  });

  it('a predicted message that never showed live differs once the trace is complete, not while it runs', () => {
    const missing = predicted.filter((e) => e.msgId !== 'p1-2');
    expect(compareTrace(predicted, missing, { complete: false, published: 2 }).matching).toBe(1);
    expect(compareTrace(predicted, missing, { complete: true, published: 2 })).toMatchObject({
      messagesCompared: 2,
      matching: 1,
    });
    // not published live at all: not compared
    expect(compareTrace(predicted, missing, { complete: true, published: 1 })).toMatchObject({
      messagesCompared: 1,
      matching: 1,
    });
  });

  it('an at-least-once duplicate (redelivered after a lost ack, processed again) differs, flagged and counted apart; another difference comes first', () => {
    const again = live((ev) => {
      const last = ev.filter((e) => e.kind === 'delivered' || e.kind === 'processed' || e.kind === 'acked').slice(-3);
      return [...ev, ...last.map((e, i) => ({ ...e, seq: e.seq + 1000 + i }))];
    });
    const c = compareTrace(predicted, again, { complete: true, published: 2, duplicates: new Set(['p1-1']) });
    expect(c).toMatchObject({
      messagesCompared: 2,
      matching: 1,
      atLeastOnce: 1,
      firstDifference: { msgId: 'p1-1', atLeastOnce: true },
    });
    // not a duplicate the trace saw: an ordinary difference
    expect(compareTrace(predicted, again, { complete: true, published: 2 })).toMatchObject({
      matching: 1,
      atLeastOnce: 0,
    });
    // a real difference on another message is the first one shown
    const both = [
      ...again.filter((e) => e.msgId !== 'p1-2'),
      ...predicted.filter((e) => e.msgId === 'p1-2' && e.kind !== 'acked'),
    ];
    expect(
      compareTrace(predicted, both, { complete: true, published: 2, duplicates: new Set(['p1-1']) }).firstDifference,
    ).toMatchObject({ msgId: 'p1-2' });
  });
});

describe('the trace prediction with a node loss', () => {
  const work = design.consumers[0]!.queue;
  const at = (events: readonly SimEvent[], kind: SimEvent['kind']) =>
    events.filter((e) => e.kind === kind).map((e) => Math.round(e.t));

  it('the queues of the lost node deliver nothing until its leader moves; the same steps per message, later', () => {
    const nodeLoss = { node: 'rabbit-c2@h', atMs: 5, downMs: 10_000, leaderMovesAfterMs: 700, queues: [work] };
    const lossy = predict(design, { messages: 2, failure, nodeLoss, ratePerSecond: 100 }).events;
    // published at the trace's rate (10 ms apart), so the loss falls where it fell live
    expect(at(lossy, 'published').slice(0, 2)).toEqual([0, 10]);
    expect(Math.min(...at(lossy, 'delivered').filter((t) => t > 0))).toBeGreaterThanOrEqual(705);
    expect(compareTrace(predicted, lossy, { complete: true, published: 2 })).toMatchObject({
      messagesCompared: 2,
      matching: 2,
    });
  });
});

/** `in` has no consumer and dead-letters expired messages to `dead`; messages are published without expiration. */
const d = designOf({
  exchanges: [
    { name: 'x', type: 'direct' },
    { name: 'dlx', type: 'fanout' },
  ],
  queues: [{ name: 'in', arguments: { 'x-dead-letter-exchange': 'dlx' } }, { name: 'dead' }],
  bindings: [bindQ('x', 'in', 'k'), bindQ('dlx', 'dead')],
  publishers: [{ id: 'p', exchange: 'x', routingKey: 'k', properties: { headers: { tenant: 'a' } } }],
});

describe('the trace prediction with the trace overrides', () => {
  it('publishes with the trace overrides: an expiration set on the test messages is predicted', () => {
    const kinds = (o: Parameters<typeof predict>[1]) => predict(d, o).events.map((e) => e.kind);
    expect(kinds({ messages: 1 })).not.toContain('expired');
    const withTtl = predict(d, { messages: 1, overrides: { expiration: '100' } }).events;
    expect(withTtl.map((e) => e.kind)).toContain('expired');
    expect(withTtl.find((e) => e.kind === 'dead-lettered')).toMatchObject({ queue: 'in', reason: 'expired' });
  });

  it('header overrides are merged over the publisher headers', () => {
    const pub = predict(d, { messages: 1, overrides: { headers: { retry: 1 }, priority: 3 } }).events.find(
      (e) => e.kind === 'published',
    );
    expect(pub?.kind === 'published' && pub.headers).toEqual({ tenant: 'a', retry: 1 });
  });
});

describe('predict runs to the design horizon (sim/retryHorizon.ts), as simulate does', () => {
  const DAY = 86_400_000;
  it('retries 3 days apart are predicted to the parking queue, past the 7 days a run used to stop at', () => {
    const p = predict(loopDesign({ ttl: 3 * DAY, maxRetries: 3 }), { messages: 1, failure: { kind: 'always' } });
    expect(p.horizon).toMatchObject({ chainMs: 4 * 3 * DAY, cut: false });
    expect(p.horizon.ms).toBe(13 * DAY);
    const parked = p.events.find((e) => e.kind === 'enqueued' && e.queue === 'parking.q');
    expect(parked?.t).toBe(9 * DAY);
  });
  it("the trace's own expiration is part of the horizon", () => {
    const p = predict(design, { messages: 1, failure, overrides: { expiration: String(3 * DAY) } });
    expect(p.horizon.chainMs).toBeGreaterThanOrEqual(3 * DAY);
  });
});
