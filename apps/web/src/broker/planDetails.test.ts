import { describe, expect, it } from 'vitest';
import {
  policyChanges,
  queueEffectiveSettings,
  type PolicyDef,
  type QueueDef,
} from '@retry-studio/topology-core/model';
import type { PlanItem } from '@retry-studio/contract';
import {
  appliesInPlace,
  argumentLines,
  describePolicy,
  policyDetails,
  settingsFromPolicies,
  shapeChanges,
  shownValue,
} from './planDetails';

const policy = (definition: PolicyDef['definition'], over: Partial<PolicyDef> = {}): PolicyDef => ({
  name: 'p.wait',
  pattern: '^p\\.wait$',
  'apply-to': 'queues',
  priority: 0,
  definition,
  ...over,
});

/** a policy row as the server plans it, the changes from the core's own table */
function policyItem(
  status: PlanItem['status'],
  desired?: PolicyDef,
  actual?: PolicyDef,
): Extract<PlanItem, { kind: 'policy' }> {
  return {
    kind: 'policy',
    status,
    designName: 'wait',
    name: 'p.wait',
    ...(desired ? { desired } : {}),
    ...(actual ? { actual } : {}),
    ...(status === 'update' && desired && actual ? { changes: policyChanges(actual, desired) } : {}),
  };
}

describe('plan row details', () => {
  it('an update lists each change with its effect, in place', () => {
    const lines = policyDetails(policyItem('update', policy({ 'message-ttl': 200 }), policy({ 'message-ttl': 100 })));
    expect(lines).toEqual([{ text: 'definition.message-ttl: 100 -> 200', effect: 'in-place' }]);
    expect(appliesInPlace(lines)).toBe(true);
  });

  it('a key read only at declaration makes the update partly in place', () => {
    const lines = policyDetails(
      policyItem(
        'update',
        policy({ 'message-ttl': 100, 'queue-leader-locator': 'balanced' }),
        policy({ 'message-ttl': 100 }),
      ),
    );
    expect(lines.map((l) => l.effect)).toEqual(['new-declarations-only']);
    expect(appliesInPlace(lines)).toBe(false);
  });

  it('a create says what the policy sets; a remove says what it no longer sets', () => {
    const p = policy({ 'message-ttl': 5000, 'dead-letter-exchange': 'work' });
    expect(describePolicy(p)).toBe(
      'pattern ^p\\.wait$ on queues, priority 0: message-ttl 5000, dead-letter-exchange work',
    );
    expect(policyDetails(policyItem('create', p))[0]!.text).toBe(describePolicy(p));
    const removed = policyDetails(policyItem('remove', undefined, p));
    expect(removed[0]!.text).toBe(`no longer sets ${describePolicy(p)}`);
    expect(appliesInPlace(removed)).toBe(true);
  });

  it('a queue row names the settings a policy gives it, not its own arguments', () => {
    const q: QueueDef = { name: 'p.wait', arguments: { 'x-max-length': 10 } };
    const effective = queueEffectiveSettings(q, { policies: [policy({ 'message-ttl': 5000 })] });
    const item: PlanItem = {
      kind: 'queue',
      status: 'create',
      designName: 'wait',
      name: 'p.wait',
      desired: { durable: true, auto_delete: false, arguments: q.arguments ?? {} },
      effective,
    };
    expect(settingsFromPolicies(item)).toEqual(['x-message-ttl 5000 (policy p.wait)']);
  });

  it('a queue the broker has with other settings shows each difference before (broker) and after (design)', () => {
    const desired = {
      durable: true,
      auto_delete: false,
      arguments: { 'x-message-ttl': 5000, 'x-dead-letter-exchange': 'work' },
    };
    const actual = {
      durable: true,
      auto_delete: false,
      arguments: { 'x-message-ttl': 3000 },
      messages: 4,
      consumers: 0,
    };
    const effective = queueEffectiveSettings({ name: 'p.wait', arguments: desired.arguments }, { policies: [] });
    const item: PlanItem = {
      kind: 'queue',
      status: 'conflict',
      designName: 'wait',
      name: 'p.wait',
      desired,
      actual,
      effective,
    };
    expect(shapeChanges(item).map((c) => [c.field, shownValue(c.from), shownValue(c.to)])).toEqual([
      ['arguments.x-dead-letter-exchange', 'not set', 'work'],
      ['arguments.x-message-ttl', '3000', '5000'],
    ]);
    expect(argumentLines(desired.arguments)).toEqual(['x-message-ttl 5000', 'x-dead-letter-exchange work']);
  });

  it('an exchange of another type shows the type before and after; a new one has nothing before', () => {
    const desired = {
      type: 'x-delayed-message',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: { 'x-delayed-type': 'direct' },
    };
    const actual = { type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} };
    const conflict: PlanItem = {
      kind: 'exchange',
      status: 'conflict',
      designName: 'delay',
      name: 'p.delay',
      desired,
      actual,
    };
    expect(shapeChanges(conflict).map((c) => c.field)).toEqual(['type', 'arguments.x-delayed-type']);
    expect(shapeChanges({ ...conflict, status: 'create', actual: undefined })).toEqual([]);
  });
});
