import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import type { PublisherSpec } from '../model/publisher.js';
import { lintDesign } from './lintDesign.js';
import { buildFlow } from './flow.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { templateDesign } from '../../testing/templateDesign.js';

/**
 * Issue 26.6: work.q fails -> `retry` (fanout) -> wait.q (TTL) -> dead-letters to `main`, which
 * takes it back to work.q by its key `task`. `main` also binds `delay` to wait.q, a key nothing
 * publishes: the message leaves the loop, wait.q never dead-letters into itself.
 */
function fanoutWait(publishers: PublisherSpec[] = [{ id: 'p', exchange: 'main', routingKey: 'task' }]): Design {
  const topology: Topology = {
    exchanges: [
      { name: 'main', type: 'direct' },
      { name: 'retry', type: 'fanout' },
      { name: 'parked', type: 'direct' },
    ],
    queues: [
      { name: 'work.q', arguments: { 'x-dead-letter-exchange': 'retry' } },
      { name: 'wait.q', arguments: { 'x-message-ttl': 1000, 'x-dead-letter-exchange': 'main' } },
    ],
    bindings: [
      { source: 'main', destination: 'work.q', destination_type: 'queue', routing_key: 'task' },
      { source: 'main', destination: 'wait.q', destination_type: 'queue', routing_key: 'delay' },
      { source: 'retry', destination: 'wait.q', destination_type: 'queue', routing_key: '' },
    ],
  };
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 'fanout wait',
    topology,
    consumers: [
      {
        id: 'w',
        queue: 'work.q',
        behaviour: {
          kind: 'worker',
          onFailure: [
            {
              when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'work.q', reason: 'rejected' }, value: 3 },
              then: { kind: 'reject' },
            },
            { then: { kind: 'ack' } },
          ],
        },
      },
    ],
    publishers,
  };
}

describe('arrival keys through a fanout exchange', () => {
  it('a queue fed by a fanout carries the keys that reached the fanout, not every key', () => {
    const d = fanoutWait();
    const flow = buildFlow(d.topology, d.consumers, d.publishers);
    // the design declares its publisher: nothing publishes to a queue by name through the default exchange
    expect([...(flow.arrivalKeys('wait.q') ?? ['<any>'])].sort()).toEqual(['task']);
    expect([...(flow.deadLetterTargets('wait.q') ?? [])]).toEqual(['work.q']);
  });

  it('no automatic-cycle-dropped "wait.q -> wait.q": the simulator takes the message back to work.q', () => {
    const d = fanoutWait();
    expect(lintDesign(d).map((f) => f.id)).not.toContain('automatic-cycle-dropped');
    const r = simulate({ ...designToSimulation(d, { messages: 1, failure: { kind: 'always' } }), maxTimeMs: 60_000 });
    const path = r.events.filter((e) => e.kind === 'enqueued').map((e) => (e as { queue: string }).queue);
    expect(path.slice(0, 4)).toEqual(['work.q', 'wait.q', 'work.q', 'wait.q']);
    expect(r.events.some((e) => e.kind === 'dropped')).toBe(false);
  });

  it('still a cycle when a publisher does send `delay`: wait.q dead-letters into itself', () => {
    const d = fanoutWait([
      { id: 'p', exchange: 'main', routingKey: 'task' },
      { id: 'later', exchange: 'main', routingKey: 'delay' },
    ]);
    const f = lintDesign(d).find((x) => x.id === 'automatic-cycle-dropped');
    expect(f?.message).toMatch(/^wait\.q -> wait\.q/);
  });

  it('a definitions file: any key may be published to `main`, so the cycle is possible', () => {
    const d = { ...fanoutWait([]), consumers: [] };
    expect(lintDesign(d).map((f) => f.id)).toContain('automatic-cycle-dropped');
  });
});

describe('arrival keys by queue name (the default exchange)', () => {
  it('a queue name is a key only where a publisher (or, with none declared, any client) publishes to the queue by name', () => {
    const byName = fanoutWait([{ id: 'p', exchange: '', routingKey: 'work.q' }]);
    expect([
      ...(buildFlow(byName.topology, byName.consumers, byName.publishers).arrivalKeys('work.q') ?? ['<any>']),
    ]).toEqual(['work.q']);
    const none = fanoutWait([]);
    expect([...(buildFlow(none.topology, [], []).arrivalKeys('work.q') ?? ['<any>'])]).toContain('work.q');
    // a wait queue (a TTL, reached by dead letters) is fed by them, with their keys: no client is assumed to publish to it by name
    expect([...(buildFlow(none.topology, [], []).arrivalKeys('wait.q') ?? ['<any>'])]).not.toContain('wait.q');
  });

  it('a wait queue dead-lettering to the default exchange with no key of its own sends each message back where its key says (ONS census)', () => {
    // work queues dead-letter to a headers exchange (no arguments: it takes every message) with their own name as
    // the key; the 15 s wait queue dead-letters to "" with no key, so each message goes back to its work queue
    const topology: Topology = {
      exchanges: [
        { name: 'events', type: 'topic' },
        { name: 'delayedRedeliveryExchange', type: 'headers' },
      ],
      queues: [
        ...['case.action', 'case.refusals'].map((name) => ({
          name,
          arguments: { 'x-dead-letter-exchange': 'delayedRedeliveryExchange', 'x-dead-letter-routing-key': name },
        })),
        { name: 'delayedRedeliveryQueue', arguments: { 'x-dead-letter-exchange': '', 'x-message-ttl': 15000 } },
      ],
      bindings: [
        { source: 'events', destination: 'case.action', destination_type: 'queue', routing_key: 'event.case.*' },
        { source: 'events', destination: 'case.refusals', destination_type: 'queue', routing_key: 'event.refusal' },
        {
          source: 'delayedRedeliveryExchange',
          destination: 'delayedRedeliveryQueue',
          destination_type: 'queue',
          routing_key: '',
        },
      ],
    };
    const flow = buildFlow(topology, [], []);
    expect([...(flow.deadLetterTargets('delayedRedeliveryQueue') ?? [])].sort()).toEqual([
      'case.action',
      'case.refusals',
    ]);
    const d: Design = {
      format: 'retry-studio/design',
      version: 1,
      name: 'ons',
      topology,
      consumers: [],
      publishers: [],
    };
    const ids = lintDesign(d).map((f) => f.id);
    expect(ids).not.toContain('automatic-cycle-dropped');
    expect(ids).toContain('dead-letter-cycle-unbounded');
  });

  it('the stock binary-delay-levels template: no dead-letter-unroutable for a key no path produces (orders.delay.05)', () => {
    const d = templateDesign('binary-delay-levels');
    expect(lintDesign(d).filter((f) => f.id === 'dead-letter-unroutable')).toEqual([]);
  });
});

describe('arrival keys through a wildcard binding', () => {
  it('a topic binding from an exchange that takes any key carries its pattern, not "any key"', () => {
    const t: Topology = {
      exchanges: [{ name: 'app', type: 'topic' }],
      queues: [{ name: 'audit' }],
      bindings: [{ source: 'app', destination: 'audit', destination_type: 'queue', routing_key: 'audit.#' }],
    };
    expect([...(buildFlow(t, [], []).arrivalKeys('audit') ?? ['<any>'])].sort()).toEqual(['audit', 'audit.#']);
  });
});

describe('wildcard keys through topic bindings: overlap decided exactly (routing/topicOverlap.ts)', () => {
  // any key at `in` -> "a.#" -> topic `mid` -> "#.b" -> q: keys such as "a.b" get there, though
  // neither pattern's sample key ("a", "b") matches the other pattern
  const chain = (second: string): Topology => ({
    // `mid` internal: only what `in` passes on reaches it (no client publishes to it)
    exchanges: [
      { name: 'in', type: 'topic' },
      { name: 'mid', type: 'topic', internal: true },
    ],
    queues: [{ name: 'q' }],
    bindings: [
      { source: 'in', destination: 'mid', destination_type: 'exchange', routing_key: 'a.#' },
      { source: 'mid', destination: 'q', destination_type: 'queue', routing_key: second },
    ],
  });
  const keysAt = (t: Topology) =>
    buildFlow(t, [], [])
      .arrivalKeys('q')
      ?.filter((k) => k !== 'q');
  it('"a.#" then "#.b": keys reach the queue (the sampled overlap said none did)', () => {
    expect(keysAt(chain('#.b'))).toEqual(['#.b']);
  });
  it('"a.#" then "b.*": no key can match both, none reaches it by its bindings', () => {
    expect(keysAt(chain('b.*'))).toEqual([]);
  });
});
