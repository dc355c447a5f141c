import { describe, expect, it } from 'vitest';
import type { Scenario } from '@retry-studio/topology-core/scenario';
import type { BrokerProbe } from '../broker/probe.js';
import { missingFeatures } from './runBrokerScenario.js';
import { withRecording } from './runConformance.js';

const probe: BrokerProbe = {
  url: 'amqp://guest:***@127.0.0.1:5672/%2F',
  product: 'RabbitMQ',
  version: '3.10.8',
  majorMinor: '3.10',
  exchangeTypes: ['direct', 'fanout', 'topic', 'headers'],
  exchangeTypesSource: 'management',
  plugins: { 'x-delayed-message': false, radlx: false },
  quorum: true,
  management: { available: true, baseUrl: 'http://127.0.0.1:15672' },
};

const base: Scenario = {
  format: 'retry-scenario/1',
  name: 's',
  topology: { exchanges: [], queues: [], bindings: [] },
  consumers: [],
  steps: [],
};

describe('missingFeatures', () => {
  it('is undefined when the broker has everything', () => {
    expect(missingFeatures(base, probe)).toBeUndefined();
  });
  it('names exchange types from requires and from the topology', () => {
    expect(missingFeatures({ ...base, requires: ['x-delayed-message'] }, probe)).toMatch(
      /lacks exchange type\(s\) x-delayed-message/,
    );
    const radlx = { ...base, topology: { ...base.topology, exchanges: [{ name: 'r', type: 'radlx' as const }] } };
    expect(missingFeatures(radlx, probe)).toMatch(/radlx/);
  });
  it('names missing quorum support', () => {
    const qq = {
      ...base,
      topology: { ...base.topology, queues: [{ name: 'q', arguments: { 'x-queue-type': 'quorum' } }] },
    };
    expect(missingFeatures(qq, { ...probe, quorum: false })).toMatch(/quorum/);
  });
});

describe('withRecording', () => {
  it('replaces expect and recorded_on, keeping them last like the shared files', () => {
    const s = { ...base, expect: { deliveries: {}, final: { old: [{ body: 'x' }] } }, recorded_on: 'old' };
    const r = withRecording(s, { deliveries: {}, final: {} }, 'RabbitMQ 3.10.8');
    expect(r.expect).toEqual({ deliveries: {}, final: {} });
    expect(Object.keys(r).slice(-2)).toEqual(['expect', 'recorded_on']);
    expect(r.recorded_on).toBe('RabbitMQ 3.10.8');
  });
});
