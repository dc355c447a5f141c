import { describe, expect, it } from 'vitest';
import { argDifferences, diffTopology, sameValue, type BrokerState } from './planDeploy.js';
import { bindQ } from '../http/testing.js';
import type { Topology } from '@retry-studio/topology-core';

const state = (over: Partial<BrokerState> = {}): BrokerState => ({
  exchangeTypes: ['direct', 'fanout', 'topic', 'headers'],
  exchanges: new Map(),
  queues: new Map(),
  bindings: [],
  vhostExists: true,
  ...over,
});

describe('plan diff', () => {
  it('compares argument tables by value; x-queue-type classic equals absent', () => {
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(argDifferences({ 'x-queue-type': 'classic', 'x-message-ttl': 5 }, { 'x-message-ttl': 5 })).toEqual([]);
    expect(argDifferences({ 'x-message-ttl': 5 }, { 'x-message-ttl': 6, 'x-max-length': 1 })).toEqual(['x-max-length', 'x-message-ttl']);
  });

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
        ['x', { name: 'x', vhost: '/', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} }],
        ['f', { name: 'f', vhost: '/', type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} }],
      ]),
      queues: new Map([['q', { name: 'q', vhost: '/', durable: true, auto_delete: false, arguments: { 'x-message-ttl': 9 }, messages: 4, consumers: 1 }]]),
      bindings: [{ source: 'x', vhost: '/', destination: 'q', destination_type: 'queue', routing_key: 'k', arguments: {} }],
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
    expect(q).toMatchObject({ desired: { arguments: { 'x-message-ttl': 5 } }, actual: { arguments: { 'x-message-ttl': 9 }, messages: 4, consumers: 1 }, differences: ['arguments.x-message-ttl'] });
    expect(plan.items.find((i) => i.name === 'd')).toMatchObject({ plugin: 'rabbitmq_delayed_message_exchange' });
    expect(plan.items.find((i) => i.name === 'f')?.message).toMatch(/type/);
    expect(plan.summary).toEqual({ create: 2, unchanged: 2, conflict: 2, unsupported: 2 });
  });
});
