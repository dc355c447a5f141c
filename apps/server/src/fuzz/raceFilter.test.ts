import { describe, expect, it } from 'vitest';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { Scenario } from '@retry-studio/topology-core/scenario';
import { findRace, RACE_MARGIN_MS, screenScenario, settleFor } from './raceFilter.js';
import { generateScenario } from './generateScenario.js';

let seq = 0;
const ev = <K extends SimEvent['kind']>(
  kind: K,
  t: number,
  msgId: string,
  rest: Omit<Extract<SimEvent, { kind: K }>, 'kind' | 't' | 'seq' | 'msgId' | 'body'>,
): SimEvent => ({ kind, t, seq: seq++, msgId, body: msgId, ...rest }) as unknown as SimEvent;
const deadLetter = (t: number, msgId: string, from: string, reason: 'expired' | 'rejected') =>
  ev('dead-lettered', t, msgId, { queue: from, reason, exchange: 'dlx', routingKeys: ['k'] });
const enqueue = (t: number, msgId: string, queue: string, expiresAt?: number) =>
  ev('enqueued', t, msgId, { queue, depth: 1, ...(expiresAt !== undefined ? { expiresAt } : {}) });

describe('findRace', () => {
  it('two wait queues expiring into one work queue within the margin race; far apart they do not', () => {
    const near = [
      deadLetter(500, 'a', 'wait1', 'expired'),
      enqueue(500, 'a', 'work'),
      deadLetter(500 + RACE_MARGIN_MS - 1, 'b', 'wait2', 'expired'),
      enqueue(500 + RACE_MARGIN_MS - 1, 'b', 'work'),
    ];
    expect(findRace(near, new Set(['work']))).toMatch(/'work'.*ttl:wait1.*ttl:wait2.*too close/);
    const far = [
      deadLetter(500, 'a', 'wait1', 'expired'),
      enqueue(500, 'a', 'work'),
      deadLetter(900, 'b', 'wait2', 'expired'),
      enqueue(900, 'b', 'work'),
    ];
    expect(findRace(far, new Set(['work']))).toBeUndefined();
  });

  it('dead letters from one queue keep their order: no race however close', () => {
    const events = [
      deadLetter(200, 'a', 'wait1', 'expired'),
      enqueue(200, 'a', 'work'),
      deadLetter(201, 'b', 'wait1', 'expired'),
      enqueue(201, 'b', 'work'),
    ];
    expect(findRace(events, new Set(['work']))).toBeUndefined();
  });

  it("a dead letter arriving while the queue's consumer is delivering is a race (4.3 redelivered flag)", () => {
    const events = [
      ev('delivered', 400, 'a', {
        queue: 'work',
        consumer: 'work#0',
        redelivered: false,
        headers: {},
        routingKey: 'k',
        exchange: '',
      }),
      deadLetter(420, 'b', 'wait1', 'expired'),
      enqueue(420, 'b', 'work'),
    ];
    expect(findRace(events, new Set(['work']))).toMatch(/consumer:work/);
  });

  it('a TTL entering a consumed queue, and a later message expiring before the one ahead of it, are avoided', () => {
    expect(findRace([enqueue(0, 'a', 'work', 200)], new Set(['work']))).toMatch(/TTL racing a delivery/);
    expect(findRace([enqueue(0, 'a', 'park', 900), enqueue(10, 'b', 'park', 210)], new Set())).toMatch(/head-of-line/);
    expect(findRace([enqueue(0, 'a', 'park'), enqueue(10, 'b', 'park', 210)], new Set())).toMatch(/head-of-line/);
    expect(findRace([enqueue(0, 'a', 'park', 200), enqueue(10, 'b', 'park', 210)], new Set())).toBeUndefined();
  });
});

describe('settleFor', () => {
  it('is the longest quiet gap (or the tail after the last delivery) plus a margin, at least 500 ms', () => {
    expect(settleFor([])).toBe(500);
    const events = [
      ev('delivered', 100, 'a', {
        queue: 'w',
        consumer: 'w#0',
        redelivered: false,
        headers: {},
        routingKey: 'k',
        exchange: '',
      }),
      ev('delivered', 1000, 'a', {
        queue: 'w',
        consumer: 'w#0',
        redelivered: false,
        headers: {},
        routingKey: 'k',
        exchange: '',
      }),
      ev('expired', 1500, 'a', { queue: 'p' }),
    ];
    expect(settleFor(events)).toBe(900 + 350);
  });
});

describe('generateScenario and screenScenario', () => {
  it('the same seed gives the same scenario, another seed another one', () => {
    expect(generateScenario(7, 'n')).toEqual(generateScenario(7, 'n'));
    expect(JSON.stringify(generateScenario(8, 'n'))).not.toBe(JSON.stringify(generateScenario(7, 'n')));
  });

  it('every generated queue with a consumer has no TTL and no length limit; every consumer has prefetch 1 and a last action that is not a requeue', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const s: Scenario = generateScenario(seed, 'n');
      const consumed = new Set(s.consumers.map((c) => c.queue));
      for (const q of s.topology.queues.filter((x) => consumed.has(x.name))) {
        expect(q.arguments?.['x-message-ttl']).toBeUndefined();
        expect(q.arguments?.['x-max-length']).toBeUndefined();
      }
      for (const c of s.consumers) {
        expect(c.prefetch).toBeUndefined();
        expect(['requeue', 'reject-requeue']).not.toContain(c.actions[c.actions.length - 1]);
      }
      expect(s.start_consumers).toBe('after');
      const prios = (s.topology.policies ?? []).map((p) => p.priority);
      expect(new Set(prios).size).toBe(prios.length);
    }
  });

  it('a screened scenario carries a settle_ms and the prediction; a racy one is avoided with the reason', () => {
    let ok = 0;
    let avoided = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = screenScenario(generateScenario(seed, 'n'), '3.10');
      if (r.kind === 'ok') {
        ok += 1;
        expect(r.scenario.settle_ms).toBeGreaterThanOrEqual(500);
        expect(r.predicted.deliveries).toBeDefined();
      } else {
        avoided += 1;
        expect(r.reason.length).toBeGreaterThan(10);
      }
    }
    expect(ok).toBeGreaterThan(15);
    expect(avoided).toBeGreaterThan(0);
  });
});

describe('findRace and the publish steps', () => {
  it("a TTL expiring within the steps' span meets a later step in the same queue: a race (the broker's steps take real time)", () => {
    const publish = (msgId: string) =>
      ev('published', 0, msgId, {
        exchange: 'x',
        routingKey: 'k',
        origin: { kind: 'step' },
        headers: {},
        mandatory: false,
      });
    const events = [
      publish('a'),
      enqueue(0, 'a', 'park', 200),
      publish('b'),
      enqueue(0, 'b', 'park', 200),
      ev('expired', 200, 'a', { queue: 'park' }),
    ];
    expect(findRace(events, new Set())).toMatch(/'park'.*steps.*ttl:park/);
    const late = [publish('a'), enqueue(0, 'a', 'park', 900), ev('expired', 900, 'a', { queue: 'park' })];
    expect(findRace(late, new Set())).toBeUndefined();
  });
});
