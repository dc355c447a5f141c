import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../appconfig/importApp.js';
import { springBootYml } from '../../testing/appConfigFixtures.js';
import { predictChannels } from './channelPrediction.js';
import { observedEnd, type EndFacts } from './channelEnd.js';
import { compareChannel, delayRange } from './compareChannel.js';

const boot = (yml: string) => importAppConfig([{ name: 'application.yml', text: yml }]).design;
const facts = (over: Partial<EndFacts>): EndFacts => ({
  depths: [],
  publishes: 1,
  acks: 0,
  lastSucceeded: false,
  stillGoing: false,
  ...over,
});

describe('prove: the prediction per channel', () => {
  const design = boot(springBootYml({ enabled: true, maxAttempts: 3, initialInterval: '200ms', multiplier: 2 }));

  it('always failing: the attempts, waits and end the simulator gives', () => {
    const [p] = predictChannels(design, { kind: 'always' });
    expect(p).toMatchObject({ attempts: 3, delaysMs: [200, 400], end: 'dropped', jitter: false });
  });

  it('failing the first 2: acked at the third attempt', () => {
    const [p] = predictChannels(design, { kind: 'failFirst', n: 2 });
    expect(p).toMatchObject({ attempts: 3, delaysMs: [200, 400], end: 'acked' });
  });

  it('failing the first 1 of 3: acked at the second', () => {
    const [p] = predictChannels(design, { kind: 'failFirst', n: 1 });
    expect(p).toMatchObject({ attempts: 2, delaysMs: [200], end: 'acked' });
  });
});

describe('prove: a listener whose queue the broker refuses', () => {
  const anonymous = (profile: '3.10' | '4.3') =>
    importAppConfig([{ name: 'application.yml', text: 'spring.cloud.stream.bindings.sink-in-0.destination: d\n' }], {
      profile,
    }).design;

  it('on 4.3 an anonymous group never consumes (x-queue-master-locator refused): no attempt is predicted', () => {
    const [p] = predictChannels(anonymous('4.3'), { kind: 'always' });
    expect(p).toMatchObject({ attempts: 0, delaysMs: [], end: 'never-consumes', refused: ['x-queue-master-locator'] });
  });

  it('on 3.10 the same binding runs: the binder retries, then acks (no DLX for republish-to-dlq)', () => {
    const [p] = predictChannels(anonymous('3.10'), { kind: 'always' });
    expect(p).toMatchObject({ attempts: 3, delaysMs: [1000, 2000], end: 'discarded' });
    expect(p!.refused).toBeUndefined();
  });
});

describe('prove: the observed end from the broker', () => {
  it('a message left in a queue rests there; one held unacked is held', () => {
    expect(observedEnd(facts({ depths: [{ queue: 'q.dlq', ready: 1, unacked: 0 }] }))).toBe('queue:q.dlq');
    expect(observedEnd(facts({ depths: [{ queue: 'q', ready: 0, unacked: 1 }] }))).toBe('held:q');
  });
  it('gone: dropped when a published copy was not acked; else acked, or discarded if the listener never succeeded', () => {
    // requeued twice, then processed: one publish, one ack
    expect(observedEnd(facts({ publishes: 1, acks: 1, lastSucceeded: true }))).toBe('acked');
    // three retries each republished and acked (Celery), the last acked after the task gave up
    expect(observedEnd(facts({ publishes: 3, acks: 3, lastSucceeded: false }))).toBe('discarded');
    // republished twice, then rejected with no dead-letter exchange (Rascal's republish, then nack)
    expect(observedEnd(facts({ publishes: 3, acks: 2 }))).toBe('dropped');
  });
  it('still going when the watch stopped: cycling, whatever the queues hold', () => {
    expect(observedEnd(facts({ stillGoing: true, depths: [{ queue: 'q', ready: 1, unacked: 0 }] }))).toBe('cycling');
  });
});

describe('prove: prediction against observation', () => {
  const p = {
    consumer: 'c',
    queue: 'q',
    attempts: 3,
    delaysMs: [1000, 2000],
    end: 'dropped',
    jitter: false,
    endTime: 3000,
    outcome: { kind: 'dropped', why: 'no-dlx' },
    message: { publisher: 'p', body: 'p-1' },
  } as const;

  it('agrees within 10% (and the slack) of each wait', () => {
    expect(compareChannel(p, { attempts: 3, delaysMs: [1080, 2150], end: 'dropped' })).toEqual({
      agree: true,
      differences: [],
    });
  });

  it('names each difference: attempts, end, a wait out of range', () => {
    const c = compareChannel(p, { attempts: 4, delaysMs: [1000, 5000, 1000], end: 'discarded' });
    expect(c.agree).toBe(false);
    expect(c.differences).toEqual([
      'attempts: predicted 3, observed 4',
      'end: predicted dropped, observed discarded',
      expect.stringMatching(/^wait 2: predicted 2 s, observed 5 s/),
    ]);
  });

  it('two loops agree on their waits, whatever count each watch stopped at', () => {
    const loop = { ...p, attempts: 6666, delaysMs: [0, 0, 0], end: 'cycling' };
    expect(compareChannel(loop, { attempts: 12, delaysMs: [5, 3, 4], end: 'cycling' }).agree).toBe(true);
    expect(compareChannel(loop, { attempts: 12, delaysMs: [5, 3, 4], end: 'dropped' }).agree).toBe(false);
  });

  it('with jitter a wait may be anywhere from 0 to the stated one', () => {
    expect(delayRange(4000, true).min).toBe(0);
    expect(compareChannel({ ...p, jitter: true }, { attempts: 3, delaysMs: [10, 1900], end: 'dropped' }).agree).toBe(
      true,
    );
    expect(delayRange(4000, false).min).toBeGreaterThan(3000);
  });
});
