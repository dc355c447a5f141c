import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { designToSimulation } from './designToSimulation.js';
import { simulate } from './simulate.js';
import { outcomesOfRun } from './runOutcomes.js';
import { outcomesOfEvents } from './eventOutcomes.js';
import { ledgerOf } from './copyLedger.js';
import { decideOutcome } from './messageOutcome.js';
import { describeOutcome } from './outcomeText.js';
import type { SimEvent } from './events.js';

const design = templateDesign('dlx-ttl-wait-queue');
const names = {
  work: design.consumers.find((c) => c.behaviour.kind === 'worker')!.queue,
  wait: design.topology.queues.find((q) => q.arguments?.['x-message-ttl'] !== undefined)!.name,
};
const parking = design.topology.queues.find((q) => q.name !== names.work && q.name !== names.wait)!.name;
const worker = design.consumers.find((c) => c.behaviour.kind === 'worker')!.id;

/** What a live trace streams for one message that fails once, waits, fails again and is parked (no expiresAt, no x-death on the dead letter: the broker's copies carry them, the events need not). */
function liveJourney(msgId: string, t0: number, stopAfter = Infinity): SimEvent[] {
  let seq = 0;
  const base = (t: number) => ({ t: t0 + t, seq: seq++, msgId, body: msgId });
  const evs: SimEvent[] = [
    {
      ...base(0),
      kind: 'published',
      exchange: 'orders',
      routingKey: 'orders',
      origin: { kind: 'publisher', id: 'publisher' },
      headers: {},
      mandatory: false,
    },
    { ...base(1), kind: 'enqueued', queue: names.work, depth: 1 },
    {
      ...base(2),
      kind: 'delivered',
      queue: names.work,
      consumer: worker,
      redelivered: false,
      headers: {},
      routingKey: 'orders',
      exchange: 'orders',
    },
    { ...base(3), kind: 'processed', queue: names.work, consumer: worker, attempt: 1, ok: false },
    { ...base(4), kind: 'rejected', queue: names.work, consumer: worker },
    {
      ...base(5),
      kind: 'dead-lettered',
      queue: names.work,
      reason: 'rejected',
      exchange: 'x',
      routingKeys: ['orders'],
    },
    { ...base(6), kind: 'enqueued', queue: names.wait, depth: 1 },
    {
      ...base(5006),
      kind: 'dead-lettered',
      queue: names.wait,
      reason: 'expired',
      exchange: 'x',
      routingKeys: ['orders'],
    },
    { ...base(5007), kind: 'enqueued', queue: parking, depth: 1 },
  ];
  return evs.slice(0, Math.min(evs.length, stopAfter));
}

describe('outcomes from the events alone (the live lanes)', () => {
  it('a live trace whose broker parked all 3 messages ends "parked in Q" for each, running or ended, never waiting', () => {
    const events = [
      ...liveJourney('publisher-1', 0),
      ...liveJourney('publisher-2', 10),
      ...liveJourney('publisher-3', 20),
    ];
    for (const running of [true, false]) {
      const o = outcomesOfEvents(design, events, { running });
      expect([...o.byMsg.keys()].sort()).toEqual(['publisher-1', 'publisher-2', 'publisher-3']);
      for (const outcome of o.byMsg.values()) {
        expect(outcome).toEqual({ kind: 'parked', queue: parking });
        expect(describeOutcome(outcome, { topology: design.topology })).toMatch(
          new RegExp(`^parked in ${parking.replace('.', '\\.')}`),
        );
      }
    }
  });

  it('a message still in the wait queue (TTL and a dead-letter route) or at the worker is still moving, not parked there', () => {
    const inWait = outcomesOfEvents(design, liveJourney('publisher-1', 0, 7), { running: true }).byMsg.get(
      'publisher-1',
    )!;
    expect(inWait.kind).toBe('moving');
    const atWorker = outcomesOfEvents(design, liveJourney('publisher-1', 0, 3), { running: true }).byMsg.get(
      'publisher-1',
    )!;
    expect(atWorker.kind).toBe('moving');
    // rejected, its dead letter not seen yet: in transit
    expect(
      outcomesOfEvents(design, liveJourney('publisher-1', 0, 5), { running: false }).byMsg.get('publisher-1')!.kind,
    ).toBe('moving');
    // a trace that ended with the message unacked at a consumer: held there
    expect(
      outcomesOfEvents(design, liveJourney('publisher-1', 0, 3), { running: false }).byMsg.get('publisher-1'),
    ).toEqual({ kind: 'held', consumer: worker });
  });

  it('copies counted from the events: ready where the last enqueue left it, none at a consumer', () => {
    const c = ledgerOf(liveJourney('m', 0)).get('m')!;
    expect([...c.ready]).toEqual([[parking, 1]]);
    expect(c.unacked + c.pending).toBe(0);
    expect(c.inTransit).toBe(false);
    expect(ledgerOf(liveJourney('m', 0, 6)).get('m')!.inTransit).toBe(true);
  });

  it('the same event stream gives the same outcome through both paths (the run with its final queues, and the events alone)', () => {
    for (const id of ['dlx-ttl-wait-queue', 'quorum-delivery-limit', 'republish-ttl', 'requeue-once']) {
      const d = templateDesign(id);
      for (const failure of [{ kind: 'always' as const }, { kind: 'failFirst' as const, n: 2 }]) {
        const r = simulate({ ...designToSimulation(d, { messages: 3, failure, seed: 1 }), maxEvents: 20_000 });
        const run = outcomesOfRun(d, r, failure).byMsg;
        const alone = outcomesOfEvents(d, r.events, { running: r.truncated, failure }).byMsg;
        expect(run.size).toBeGreaterThan(0);
        expect(Object.fromEntries(alone), `${id} ${failure.kind}`).toEqual(Object.fromEntries(run));
      }
    }
  });
});

describe('a run cut off while another message still loops', () => {
  it('a message dropped before the cut is dropped, not "still moving" (decideOutcome read truncated as moving for it)', () => {
    const events: SimEvent[] = [
      {
        kind: 'published',
        exchange: 'x',
        routingKey: 'nowhere',
        origin: { kind: 'step' },
        headers: {},
        mandatory: false,
        t: 0,
        seq: 0,
        msgId: 'm',
        body: 'm',
      },
      {
        kind: 'routed',
        exchange: 'x',
        routingKeys: ['nowhere'],
        queues: [],
        exchanges: [],
        t: 0,
        seq: 1,
        msgId: 'm',
        body: 'm',
      },
      { kind: 'unroutable', exchange: 'x', routingKeys: ['nowhere'], t: 0, seq: 2, msgId: 'm', body: 'm' },
      { kind: 'dropped', why: 'no-route', exchange: 'x', t: 0, seq: 3, msgId: 'm', body: 'm' },
    ];
    const o = decideOutcome(ledgerOf(events).get('m')!, { truncated: true, endTime: 86_400_000 });
    expect(o).toEqual({ kind: 'dropped', why: 'no-route', exchange: 'x' });
  });
});
