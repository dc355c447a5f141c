import { describe, expect, it } from 'vitest';
import type { AmqpTable, Topology } from './definitions.js';
import { validateTopology } from './validateTopology.js';
import { validateDesign } from './validateDesign.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from './design.js';
import { T } from '../../testing/builders.js';

/** Fixture builder: queues `orders.wait` and `orders.work`, and one policy built from `over`. */
function withPolicy(over: Record<string, unknown>, definition: AmqpTable = { 'message-ttl': 5000 }): Topology {
  return {
    ...T.topology(T.queue('orders.wait'), T.queue('orders.work')),
    policies: [
      { name: 'p', pattern: '^orders\\.wait$', 'apply-to': 'queues', priority: 0, definition, ...over } as never,
    ],
  };
}
const issues = (t: Topology) => {
  const r = validateTopology(t);
  return {
    errors: r.errors.map((e) => `${e.path} ${e.code}`),
    warnings: r.warnings.map((e) => `${e.path} ${e.code}`),
    messages: r.errors.map((e) => e.message),
  };
};

describe('policy validation', () => {
  it('accepts a valid policy', () => {
    expect(issues(withPolicy({}))).toEqual({ errors: [], warnings: [], messages: [] });
  });

  it('an invalid pattern, naming the field', () => {
    const r = issues(withPolicy({ pattern: '^orders.(wait' }));
    expect(r.errors).toEqual(['policies[0].pattern pattern-invalid']);
    expect(r.messages[0]).toMatch(/not a valid regular expression/);
  });

  it('an unknown key, naming the key', () => {
    expect(issues(withPolicy({}, { 'x-message-ttl': 5000 })).errors).toEqual([
      'policies[0].definition.x-message-ttl policy-key-unknown',
    ]);
    expect(issues(withPolicy({}, { 'message-tll': 5000 })).errors).toEqual([
      'policies[0].definition.message-tll policy-key-unknown',
    ]);
  });

  it('a bad value for a known key', () => {
    expect(issues(withPolicy({}, { 'message-ttl': -1 })).errors).toEqual([
      'policies[0].definition.message-ttl argument-value',
    ]);
    expect(issues(withPolicy({}, { overflow: 'drop-tail' })).errors).toEqual([
      'policies[0].definition.overflow argument-value',
    ]);
  });

  it('a priority out of range or not an integer', () => {
    expect(issues(withPolicy({ priority: 1.5 })).errors).toEqual(['policies[0].priority priority-range']);
    expect(issues(withPolicy({ priority: 2 ** 40 })).errors).toEqual(['policies[0].priority priority-range']);
    expect(issues(withPolicy({ priority: -3 })).errors).toEqual([]);
  });

  it('apply-to not one of RabbitMQ values', () => {
    const r = issues(withPolicy({ 'apply-to': 'queue' }));
    expect(r.errors).toEqual(['policies[0].apply-to apply-to-invalid']);
    expect(r.messages[0]).toMatch(/all, queues, classic_queues, quorum_queues, streams, exchanges/);
    expect(issues(withPolicy({ 'apply-to': 'quorum_queues' })).errors).toEqual([]);
  });

  it('an empty definition', () => {
    expect(issues(withPolicy({}, {})).errors).toEqual(['policies[0].definition policy-empty']);
  });

  it('warns about a key that cannot apply to what the policy applies to', () => {
    expect(issues(withPolicy({ 'apply-to': 'exchanges' })).warnings).toEqual([
      'policies[0].definition.message-ttl policy-key-ignored',
    ]);
  });

  it('warns when two policies match a queue with the same priority', () => {
    const t = withPolicy({ pattern: '^orders' });
    const r = issues({
      ...t,
      policies: [...t.policies!, { name: 'q', pattern: 'wait', priority: 0, definition: { 'max-length': 3 } }],
    });
    expect(r.warnings).toEqual(['policies[1].priority policy-priority-tie']);
  });
});

describe('policy keys per broker line (validateDesign)', () => {
  const designWith = (profile: '3.10' | '4.x' | '4.3', definition: AmqpTable) =>
    validateDesign({
      format: DESIGN_FORMAT,
      version: DESIGN_VERSION,
      name: 'd',
      profile,
      topology: withPolicy({}, definition),
      consumers: [],
      publishers: [],
    });
  it('warns about a key the design profile refuses', () => {
    expect(designWith('4.x', { 'ha-mode': 'all' }).warnings.map((w) => `${w.path} ${w.code}`)).toEqual([
      'topology.policies[0].definition.ha-mode policy-key-unsupported',
    ]);
    expect(designWith('3.10', { 'consumer-timeout': 1000 }).warnings.map((w) => w.code)).toEqual([
      'policy-key-unsupported',
    ]);
    expect(designWith('3.10', { 'ha-mode': 'all' }).warnings).toEqual([]);
    expect(designWith('4.3', { 'delayed-retry-type': 'disabled' }).warnings).toEqual([]);
  });
});
