// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { storiesOf, hopsOf, settleText } from './messageStory';
import { DESIGN_FORMAT, DESIGN_VERSION, type ConsumerSpec, type Design } from '@retry-studio/topology-core/model';
import { simulate } from '@retry-studio/topology-core/sim';
import { runDesignSimulation, statedOutcomesOfEvents } from '../sim/runSimulation';
import { dlxTtlRetry } from '../fixtures/designs';

function run(failure: Parameters<typeof runDesignSimulation>[1]['failure'], messages = 1) {
  const r = runDesignSimulation(dlxTtlRetry({ ttl: 1000, max: 3 }), { messages, failure, seed: 1 });
  if ('error' in r) throw new Error(r.error);
  return r;
}
const events = (failure: Parameters<typeof runDesignSimulation>[1]['failure'], messages = 1) =>
  run(failure, messages).events;

describe('message stories for the timeline and the inspector', () => {
  it('a message that succeeds on the third attempt: three attempts, two TTL waits, acked, x-death counts', () => {
    const r = run({ kind: 'failFirst', n: 2 });
    const [s] = storiesOf(r.events, r.outcomes);
    expect(s!.attempts.map((a) => a.ok)).toEqual([false, false, true]);
    expect(s!.waits.filter((w) => w.ttl).map((w) => w.to - w.from)).toEqual([1000, 1000]);
    // the core's words for the run's outcome, its tone beside them
    expect(s!.fate).toBe(r.outcomes[s!.msgId]!.text);
    expect(s!.fate).toMatch(/^acked/);
    expect(s!.tone).toBe('ok');
    const rejected = s!.xDeath.find((d) => d.queue === 'work.q' && d.reason === 'rejected');
    expect(rejected?.count).toBe(2);
  });

  it('republish-then-ack to a parking queue rests there (not "acked")', () => {
    const r = run({ kind: 'always' });
    const [s] = storiesOf(r.events, r.outcomes);
    expect(s!.fate).toMatch(/parked in parking\.q/);
    expect(s!.tone).toBe('rest');
  });

  it('states nothing of its own: a message without a stated outcome has no fate text and an open tone', () => {
    const r = run({ kind: 'failFirst', n: 2 });
    const [s] = storiesOf(r.events, {});
    expect([s!.fate, s!.tone]).toEqual(['', 'open']);
  });

  it('every published message is attributed to its publisher node', () => {
    const evs = events({ kind: 'never' }, 2);
    const pubs = evs.filter((e) => e.kind === 'published');
    expect(pubs.map((e) => e.kind === 'published' && e.origin)).toEqual([
      { kind: 'publisher', id: 'orders' },
      { kind: 'publisher', id: 'orders' },
    ]);
    expect(hopsOf(evs.filter((e) => e.msgId === pubs[0]!.msgId))).toEqual([
      'routed work',
      'enqueued work.q',
      'delivered work.q',
      'acked work.q',
    ]);
  });
});

describe('settlements by a multiple', () => {
  it('each message a batch nack settles reads as settled by basic.nack multiple, and ends parked', () => {
    const batcher: ConsumerSpec = {
      id: 'batcher',
      queue: 'work',
      prefetch: 2,
      behaviour: {
        kind: 'router',
        rules: [
          { when: { kind: 'lt', counter: { kind: 'held' }, value: 2 }, then: { kind: 'hold' } },
          { then: { kind: 'reject', multiple: true } },
        ],
      },
    };
    const design: Design = {
      format: DESIGN_FORMAT,
      version: DESIGN_VERSION,
      name: 'batch',
      topology: {
        exchanges: [{ name: 'dlx', type: 'fanout' }],
        queues: [
          { name: 'work', arguments: { 'x-dead-letter-exchange': 'dlx' } },
          { name: 'parked', arguments: {} },
        ],
        bindings: [{ source: 'dlx', destination: 'parked', destination_type: 'queue', routing_key: '' }],
      },
      consumers: [batcher],
      publishers: [],
    };
    const r = simulate({
      topology: design.topology,
      consumers: [batcher],
      steps: ['a', 'b'].map((body) => ({
        kind: 'publish' as const,
        exchange: '',
        routingKey: 'work',
        body,
        msgId: body,
      })),
    });
    const stories = storiesOf(r.events, statedOutcomesOfEvents(design, r.events, { running: false }));
    const texts = stories.map((s) => s.events.flatMap((e) => (e.kind === 'rejected' ? [settleText(e)] : [])));
    expect(texts).toEqual([
      ['rejected work by batcher (basic.nack multiple, requeue=false)'],
      ['rejected work by batcher (basic.nack multiple, requeue=false)'],
    ]);
    expect(stories.map((s) => s.fate)).toEqual([
      expect.stringMatching(/parked in parked/),
      expect.stringMatching(/parked in parked/),
    ]);
    expect(
      settleText({ kind: 'requeued', t: 0, seq: 0, msgId: 'x', body: 'x', queue: 'q', consumer: 'c', via: 'reject' }),
    ).toBe('requeued q by c (basic.reject)');
    expect(settleText({ kind: 'acked', t: 0, seq: 0, msgId: 'x', body: 'x', queue: 'q', consumer: 'c' })).toBe(
      'acked q by c',
    );
  });
});
