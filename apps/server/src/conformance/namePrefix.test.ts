import { describe, expect, it } from 'vitest';
import type { Observed, Scenario } from '@retry-studio/topology-core/scenario';
import { prefixScenario, unprefixObserved } from './namePrefix.js';

const scenario: Scenario = {
  format: 'retry-scenario/1',
  name: 'p',
  topology: {
    exchanges: [{ name: 'x', type: 'direct', arguments: { 'alternate-exchange': 'ae' } }],
    queues: [
      { name: 'q', arguments: { 'x-dead-letter-exchange': 'dlx' } },
      { name: 'r', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'q' } },
    ],
    bindings: [{ source: 'x', destination: 'q', destination_type: 'queue', routing_key: 'k' }],
    policies: [{ name: 'ttl', pattern: '^q$', 'apply-to': 'queues', definition: { 'message-ttl': 5 } }],
  },
  consumers: [
    {
      queue: 'q',
      actions: [{ republish: { exchange: '', routing_key: 'r' } }, { republish: { exchange: 'x', routing_key: 'k' } }],
    },
  ],
  steps: [
    { publish: { exchange: '', routing_key: 'q', body: 'b' } },
    { publish: { exchange: 'x', routing_key: 'k', body: 'c' } },
    { wait_ms: 5 },
  ],
};

describe('prefixScenario / unprefixObserved', () => {
  it('prefixes every name, and routing keys only where they name a queue (default exchange)', () => {
    const p = prefixScenario(scenario, 'P.');
    expect(p.topology.exchanges[0]).toMatchObject({ name: 'P.x', arguments: { 'alternate-exchange': 'P.ae' } });
    expect(p.topology.queues.map((q) => [q.name, q.arguments])).toEqual([
      ['P.q', { 'x-dead-letter-exchange': 'P.dlx' }],
      ['P.r', { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'P.q' }],
    ]);
    expect(p.topology.bindings[0]).toMatchObject({ source: 'P.x', destination: 'P.q', routing_key: 'k' });
    // a policy as a deploy prefixes it: its name, and its pattern anchored to the prefixed name
    expect(p.topology.policies).toEqual([
      expect.objectContaining({ name: 'P.ttl', 'apply-to': 'queues', definition: { 'message-ttl': 5 } }),
    ]);
    const pattern = new RegExp(p.topology.policies![0]!.pattern);
    expect([pattern.test('P.q'), pattern.test('q')]).toEqual([true, false]);
    expect(p.consumers[0]!.queue).toBe('P.q');
    expect(p.consumers[0]!.actions).toEqual([
      { republish: { exchange: '', routing_key: 'P.r' } },
      { republish: { exchange: 'P.x', routing_key: 'k' } },
    ]);
    expect(p.steps).toEqual([
      { publish: { exchange: '', routing_key: 'P.q', body: 'b' } },
      { publish: { exchange: 'P.x', routing_key: 'k', body: 'c' } },
      { wait_ms: 5 },
    ]);
  });

  it('takes the prefix out of queues, x-death and x-first-death headers', () => {
    const o: Observed = {
      deliveries: {
        'P.q': [
          {
            body: 'b',
            redelivered: false,
            'x-death': [{ queue: 'P.q', reason: 'rejected', count: 1, exchange: '', 'routing-keys': ['P.q'] }],
            headers: {
              'x-first-death-queue': 'P.q',
              'x-first-death-exchange': 'P.x',
              'x-last-death-queue': 'P.r',
              other: 'P.keep?',
            },
          },
        ],
      },
      final: { 'P.r': [{ body: 'b' }] },
    };
    expect(unprefixObserved(o, 'P.')).toEqual({
      deliveries: {
        q: [
          {
            body: 'b',
            redelivered: false,
            'x-death': [{ queue: 'q', reason: 'rejected', count: 1, exchange: '', 'routing-keys': ['q'] }],
            headers: {
              'x-first-death-queue': 'q',
              'x-first-death-exchange': 'x',
              'x-last-death-queue': 'r',
              other: 'P.keep?',
            },
          },
        ],
      },
      final: { r: [{ body: 'b' }] },
    });
  });
});
