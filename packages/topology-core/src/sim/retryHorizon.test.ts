/**
 * The horizon is the file's (issue 38 item 1): a message waiting out a long TTL is followed to the
 * end of its wait, a loop shows itself coming round, and a run cut before a wait ends says it is
 * waiting, never that it never ends.
 */
import { describe, expect, it } from 'vitest';
import { retryHorizon, BASE_HORIZON_MS, MAX_HORIZON_MS } from './retryHorizon.js';
import { computeBudget } from '../budget/budget.js';
import { designToSimulation } from './designToSimulation.js';
import { simulate } from './simulate.js';
import { outcomesOfRun } from './runOutcomes.js';
import { describeOutcome } from './outcomeText.js';
import { isMoving } from './messageOutcome.js';
import { T } from '../../testing/builders.js';
import { designOf } from '../../testing/upgradeFixtures.js';
import type { ConsumerSpec } from '../model/consumer.js';

const DAY = 86_400_000;
const publisher = [{ id: 'p', exchange: 'work', routingKey: 'job', bodyPrefix: 'm' }];
const rejecting = (
  queue: string,
  rules: ConsumerSpec['behaviour'] = { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] },
) => ({
  id: `w-${queue}`,
  queue,
  behaviour: rules,
});

/** work fails into a DLQ that holds dead letters `ttl` ms, then dead-letters them to a parking queue */
const longWait = (ttl: number) =>
  designOf(
    'long-wait',
    T.topology(
      T.exchange('work'),
      T.exchange('dead'),
      T.exchange('parking', 'fanout'),
      T.queue('q', { dlx: 'dead' }),
      T.queue('q.dlq', { ttl, dlx: 'parking' }),
      T.queue('q.parked'),
      T.bind('work', 'q', 'job'),
      T.bind('dead', 'q.dlq', 'job'),
      T.bind('parking', 'q.parked'),
    ),
    [rejecting('q')],
    publisher,
  );

describe('retryHorizon', () => {
  it('a design without long waits keeps the day', () => {
    expect(retryHorizon(longWait(5_000)).ms).toBe(BASE_HORIZON_MS);
  });
  it('a 7-day DLQ TTL: the horizon covers it, and the message is followed to its end', () => {
    const d = longWait(7 * DAY);
    const h = retryHorizon(d);
    expect(h).toMatchObject({ chainMs: 7 * DAY, chain: ['q.dlq'], cut: false });
    expect(h.ms).toBe(8 * DAY);
    const b = computeBudget(d, { kind: 'always' });
    expect(b.outcome).toMatchObject({ kind: 'parked', queue: 'q.parked' });
    expect(b.outcomeText).not.toContain('never ends');
  });
  it('a loop bounded by a counter: as many rounds as the counter reads, and one more', () => {
    // q -> 1-day wait -> q; the worker parks after 3 rejections (x-death count for q)
    const d = designOf(
      'counted-loop',
      T.topology(
        T.exchange('work'),
        T.exchange('retry'),
        T.queue('q', { dlx: 'retry' }),
        T.queue('q.wait', { ttl: DAY, dlx: 'work' }),
        T.queue('q.parked'),
        T.bind('work', 'q', 'job'),
        T.bind('retry', 'q.wait', 'job'),
      ),
      [
        rejecting('q', {
          kind: 'worker',
          onFailure: [
            {
              when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'q', reason: 'rejected' }, value: 3 },
              then: { kind: 'reject' },
            },
            { then: { kind: 'republish', exchange: '', routingKey: 'q.parked' } },
          ],
        }),
      ],
      publisher,
    );
    expect(retryHorizon(d).chainMs).toBe(4 * DAY);
    const b = computeBudget(d, { kind: 'always' });
    expect(b.outcome).toMatchObject({ kind: 'parked', queue: 'q.parked' });
    expect(b.attempts).toBe(4);
  });
  it('a chain longer than a year: cut, and the words say what was cut and why', () => {
    const d = longWait(400 * DAY);
    const h = retryHorizon(d);
    expect(h).toMatchObject({ ms: MAX_HORIZON_MS, cut: true });
    const b = computeBudget(d, { kind: 'always' });
    expect(isMoving(b.outcome)).toBe(false);
    expect(b.outcomeText).toBe(
      'waiting in q.dlq until 400 d (argument x-message-ttl 400 d), then it expires to parking (the 365 d horizon ended (the run goes 365 d at most; the TTL chain q.dlq takes 400 d) at 365 d: a wait, not a loop)',
    );
  });
});

describe('a run stopped during a wait', () => {
  it('says where the message waits, until when and what then; it is not a loop', () => {
    const d = longWait(7 * DAY);
    const input = designToSimulation(d, { messages: 1, failure: { kind: 'always' } });
    // an event bound that stops the run while the message rests in q.dlq (as another loop's events would)
    const result = simulate({ ...input, maxEvents: 8 });
    const [o] = [...outcomesOfRun(d, result, { kind: 'always' }).byMsg.values()];
    expect(o).toMatchObject({ kind: 'moving', waiting: { queue: 'q.dlq', untilMs: 7 * DAY } });
    expect(isMoving(o!)).toBe(false);
    const text = describeOutcome(o!, { topology: d.topology, horizon: retryHorizon(d) });
    expect(text).toMatch(
      /^waiting in q\.dlq until 7 d \(argument x-message-ttl 7 d\), then it expires to parking \(the run's event bound stopped it at/,
    );
    expect(text).not.toContain('never ends');
  });
  it('a loop through a long wait is still a loop once it comes round', () => {
    // q -> 2-day wait -> back to q, nothing counts: it comes round within the horizon and never ends
    const d = designOf(
      'slow-loop',
      T.topology(
        T.exchange('work'),
        T.exchange('retry'),
        T.queue('q', { dlx: 'retry' }),
        T.queue('q.wait', { ttl: 2 * DAY, dlx: 'work' }),
        T.bind('work', 'q', 'job'),
        T.bind('retry', 'q.wait', 'job'),
      ),
      [rejecting('q')],
      publisher,
    );
    const b = computeBudget(d, { kind: 'always' });
    expect(isMoving(b.outcome)).toBe(true);
    expect(b.outcomeText).toMatch(
      /still moving when the 5 d horizon ended: attempt 3, cycling through .*; it never ends/,
    );
  });
});
