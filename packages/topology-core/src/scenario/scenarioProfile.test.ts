import { describe, expect, it } from 'vitest';
import { profileFromRecordedOn } from './scenarioProfile.js';
import { fromScenario } from './fromScenario.js';
import type { Scenario } from './types.js';

const scenario = (over: Partial<Scenario> = {}): Scenario => ({
  format: 'retry-scenario/1',
  name: 's',
  topology: { exchanges: [], queues: [{ name: 'q', durable: true, auto_delete: false, arguments: {} }], bindings: [] },
  consumers: [{ queue: 'q', actions: ['reject-requeue', 'requeue', 'ack'] }],
  steps: [{ publish: { exchange: '', routing_key: 'q', body: 'm', properties: { expiration: 50 } } }],
  ...over,
});

describe('profileFromRecordedOn', () => {
  it('3.x -> 3.10, 4.0-4.2 -> 4.x, 4.3 and later -> 4.3; nothing recognisable -> 3.10', () => {
    expect(profileFromRecordedOn('RabbitMQ 3.10.8')).toBe('3.10');
    expect(profileFromRecordedOn('RabbitMQ 3.10.8 with rabbitmq_delayed_message_exchange 3.10.2')).toBe('3.10');
    expect(profileFromRecordedOn('RabbitMQ 4.0.5')).toBe('4.x');
    expect(profileFromRecordedOn('RabbitMQ 4.2.9')).toBe('4.x');
    expect(profileFromRecordedOn('RabbitMQ 4.3.6')).toBe('4.3');
    expect(profileFromRecordedOn('RabbitMQ 4.4.0')).toBe('4.3');
    expect(profileFromRecordedOn(undefined)).toBe('3.10');
    expect(profileFromRecordedOn('a broker')).toBe('3.10');
  });
});

describe('fromScenario', () => {
  it('takes the profile from recorded_on unless one is given', () => {
    expect(fromScenario(scenario({ recorded_on: 'RabbitMQ 4.3.6' })).profile).toBe('4.3');
    expect(fromScenario(scenario({ recorded_on: 'RabbitMQ 4.0.5' })).profile).toBe('4.x');
    expect(fromScenario(scenario({ recorded_on: 'RabbitMQ 4.3.6' }), { profile: '3.10' }).profile).toBe('3.10');
    expect(fromScenario(scenario()).profile).toBe('3.10');
  });

  it('reject-requeue is basic.reject with requeue, requeue a nack; a numeric expiration becomes the string on the wire', () => {
    const input = fromScenario(scenario());
    const b = input.consumers[0]?.behaviour;
    expect(b?.kind === 'script' ? b.actions : []).toEqual([
      { kind: 'requeue', via: 'reject' },
      { kind: 'requeue' },
      { kind: 'ack' },
    ]);
    const step = input.steps[0];
    expect(step?.kind === 'publish' ? step.properties?.expiration : undefined).toBe('50');
  });
});
