import { describe, expect, it } from 'vitest';
import { diffTopology, type BrokerState } from './planDeploy.js';
import { bindQ } from '../http/testing.js';
import type { PolicyDef, Topology } from '@retry-studio/topology-core/model';

const state = (over: Partial<BrokerState> = {}): BrokerState => ({
  exchangeTypes: ['direct', 'fanout', 'topic', 'headers'],
  exchanges: new Map(),
  queues: new Map(),
  bindings: [],
  policies: new Map(),
  operatorPolicies: [],
  vhostExists: true,
  ...over,
});

describe('plan diff', () => {
  it('classifies create, unchanged, conflict and unsupported', () => {
    const t: Topology = {
      exchanges: [
        { name: 'x', type: 'direct' },
        { name: 'd', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } },
        { name: 'f', type: 'fanout' },
      ],
      queues: [{ name: 'q', arguments: { 'x-message-ttl': 5 } }, { name: 'new' }],
      bindings: [bindQ('x', 'q', 'k'), bindQ('d', 'q', 'k'), bindQ('x', 'new', 'k')],
    };
    const s = state({
      exchanges: new Map([
        [
          'x',
          { name: 'x', vhost: '/', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
        ],
        [
          'f',
          { name: 'f', vhost: '/', type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} },
        ],
      ]),
      queues: new Map([
        [
          'q',
          {
            name: 'q',
            vhost: '/',
            durable: true,
            auto_delete: false,
            arguments: { 'x-message-ttl': 9 },
            messages: 4,
            consumers: 1,
          },
        ],
      ]),
      bindings: [
        { source: 'x', vhost: '/', destination: 'q', destination_type: 'queue', routing_key: 'k', arguments: {} },
      ],
    });
    const plan = diffTopology(t, t, s, { vhost: '/', prefix: '' });
    expect(plan.items.map((i) => `${i.kind}:${i.name}:${i.status}`)).toEqual([
      'exchange:x:unchanged',
      'exchange:d:unsupported',
      'exchange:f:conflict',
      'queue:q:conflict',
      'queue:new:create',
      'binding:x -> queue q [k]:unchanged',
      'binding:d -> queue q [k]:unsupported',
      'binding:x -> queue new [k]:create',
    ]);
    const q = plan.items.find((i) => i.kind === 'queue' && i.name === 'q');
    expect(q).toMatchObject({
      desired: { arguments: { 'x-message-ttl': 5 } },
      actual: { arguments: { 'x-message-ttl': 9 }, messages: 4, consumers: 1 },
      differences: ['arguments.x-message-ttl'],
    });
    expect(plan.items.find((i) => i.name === 'd')).toMatchObject({ plugin: 'rabbitmq_delayed_message_exchange' });
    expect(plan.items.find((i) => i.name === 'f')?.message).toMatch(/type/);
    expect(plan.summary).toEqual({ create: 2, update: 0, remove: 0, unchanged: 2, conflict: 2, unsupported: 2 });
  });

  it('policies: create, update in place (the queue stays unchanged), remove only what this tool created', () => {
    const wait = (ttl: number): Topology => ({
      exchanges: [],
      queues: [{ name: 'wait' }],
      bindings: [],
      policies: [
        { name: 'wait-ttl', pattern: '^wait$', 'apply-to': 'queues', priority: 0, definition: { 'message-ttl': ttl } },
      ],
    });
    const onBroker = state({
      queues: new Map([
        [
          'wait',
          { name: 'wait', vhost: '/', durable: true, auto_delete: false, arguments: {}, messages: 3, consumers: 0 },
        ],
      ]),
      policies: new Map<string, PolicyDef>([
        [
          'wait-ttl',
          {
            name: 'wait-ttl',
            pattern: '^wait$',
            'apply-to': 'queues',
            priority: 0,
            definition: { 'message-ttl': 1000 },
          },
        ],
        ['old', { name: 'old', pattern: '^x$', 'apply-to': 'queues', priority: 0, definition: { 'max-length': 1 } }],
        [
          'theirs',
          { name: 'theirs', pattern: '.*', 'apply-to': 'queues', priority: 0, definition: { 'max-length': 1 } },
        ],
      ]),
    });
    expect(
      diffTopology(wait(1000), wait(1000), state(), { vhost: '/', prefix: '' }).items.map(
        (i) => `${i.kind}:${i.status}`,
      ),
    ).toEqual(['queue:create', 'policy:create']);
    const plan = diffTopology(wait(5000), wait(5000), onBroker, { vhost: '/', prefix: '' }, ['wait-ttl', 'old']);
    expect(plan.items.map((i) => `${i.kind}:${i.name}:${i.status}`)).toEqual([
      'queue:wait:unchanged',
      'policy:wait-ttl:update',
      'policy:old:remove',
    ]);
    expect(plan.items[1]).toMatchObject({
      changes: [{ field: 'definition.message-ttl', from: 1000, to: 5000, effect: 'in-place' }],
    });
    // the queue's effective TTL comes from the policy
    expect(plan.items[0]).toMatchObject({
      effective: {
        policy: 'wait-ttl',
        settings: { 'x-message-ttl': { value: 5000, source: { kind: 'policy', name: 'wait-ttl' } } },
      },
    });
    expect(plan.summary).toMatchObject({ update: 1, remove: 1, unchanged: 1 });
  });

  it('a policy key the broker line refuses: the policy is unsupported there, not applied', () => {
    const t = (definition: PolicyDef['definition']): Topology => ({
      exchanges: [],
      queues: [{ name: 'q' }],
      bindings: [],
      policies: [{ name: 'p', pattern: '^q$', 'apply-to': 'queues', priority: 0, definition }],
    });
    const status = (d: PolicyDef['definition'], profile: '3.10' | '4.x') =>
      diffTopology(t(d), t(d), state({ profile }), { vhost: '/', prefix: '' }).items.find((i) => i.kind === 'policy');
    expect(status({ 'ha-mode': 'all' }, '4.x')).toMatchObject({
      status: 'unsupported',
      message: expect.stringMatching(/ha-mode: 3\.x only/),
    });
    expect(status({ 'consumer-timeout': 60000 }, '3.10')).toMatchObject({ status: 'unsupported' });
    expect(status({ 'ha-mode': 'all' }, '3.10')?.status).toBe('create');
    expect(status({ 'message-ttl': 5 }, '4.x')?.status).toBe('create');
  });
});
