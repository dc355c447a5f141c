import { describe, expect, it } from 'vitest';
import type { PolicyApplyTo, PolicyDef } from './definitions.js';
import { T } from '../../testing/builders.js';
import {
  describeSource,
  effectiveArguments,
  exchangeEffectiveSettings,
  queueEffectiveSettings,
} from './effectiveSettings.js';
import { choosePolicy } from './policyMatch.js';

const pol = (
  name: string,
  pattern: string,
  definition: PolicyDef['definition'],
  o: { priority?: number; applyTo?: PolicyApplyTo } = {},
): PolicyDef => ({
  name,
  pattern,
  ...(o.applyTo ? { 'apply-to': o.applyTo } : {}),
  priority: o.priority ?? 0,
  definition,
});

describe('effective settings: which policy applies', () => {
  it('the pattern is a regular expression searched in the name (not anchored)', () => {
    const p = [pol('p', 'wait', { 'message-ttl': 5 })];
    expect(queueEffectiveSettings(T.queue('orders.wait.1'), { policies: p }).policy).toBe('p');
    expect(queueEffectiveSettings(T.queue('orders.work'), { policies: p }).policy).toBeUndefined();
    expect(
      queueEffectiveSettings(T.queue('xorders'), { policies: [pol('a', '^orders', { 'message-ttl': 5 })] }).policy,
    ).toBeUndefined();
  });

  it('apply-to filters by entity kind and queue type', () => {
    const policies = [
      pol('cq', '.*', { 'message-ttl': 1 }, { applyTo: 'classic_queues' }),
      pol('qq', '.*', { 'message-ttl': 2 }, { applyTo: 'quorum_queues' }),
      pol('x', '.*', { 'alternate-exchange': 'ae' }, { applyTo: 'exchanges' }),
    ];
    expect(queueEffectiveSettings(T.queue('a'), { policies }).policy).toBe('cq');
    expect(queueEffectiveSettings(T.queue('a', { quorum: true }), { policies }).policy).toBe('qq');
    expect(exchangeEffectiveSettings(T.exchange('e'), { policies }).policy).toBe('x');
    expect(
      queueEffectiveSettings(T.queue('a'), { policies: [pol('s', '.*', { 'max-age': '1D' }, { applyTo: 'streams' })] })
        .policy,
    ).toBeUndefined();
  });

  it('the highest priority wins; equal priorities are reported as a tie', () => {
    const policies = [
      pol('low', 'q', { 'message-ttl': 1 }, { priority: 1 }),
      pol('high', 'q', { 'message-ttl': 2 }, { priority: 5 }),
      pol('twin', 'q', { 'message-ttl': 3 }, { priority: 5 }),
    ];
    const s = queueEffectiveSettings(T.queue('q'), { policies });
    expect(s.policy).toBe('twin');
    expect(s.tiedPolicies).toEqual(['high']);
    expect(choosePolicy(policies.slice(0, 2), 'q', 'classic')).toEqual({ policy: policies[1], tiedWith: [] });
  });

  it('an invalid pattern matches nothing', () => {
    expect(
      queueEffectiveSettings(T.queue('q'), { policies: [pol('bad', '(', { 'message-ttl': 1 })] }).policy,
    ).toBeUndefined();
  });
});

describe('effective settings: per key, which wins', () => {
  const withPolicy = (
    q: ReturnType<typeof T.queue>,
    definition: PolicyDef['definition'],
    op?: PolicyDef['definition'],
  ) =>
    queueEffectiveSettings(q, {
      policies: [pol('p', '.*', definition)],
      ...(op ? { operatorPolicies: [pol('op', '.*', op)] } : {}),
    });

  it('dead-letter exchange and routing key: the argument wins', () => {
    const s = withPolicy(T.queue('q', { dlx: 'arg-dlx' }), {
      'dead-letter-exchange': 'pol-dlx',
      'dead-letter-routing-key': 'pol-rk',
    });
    expect(s.settings['x-dead-letter-exchange']).toEqual({
      value: 'arg-dlx',
      source: { kind: 'argument', key: 'x-dead-letter-exchange' },
    });
    expect(s.settings['x-dead-letter-routing-key']).toEqual({ value: 'pol-rk', source: { kind: 'policy', name: 'p' } });
  });

  it('message-ttl, max-length, expires: the lower value wins, wherever it is', () => {
    const s = withPolicy(T.queue('q', { ttl: 100_000, maxLength: 5 }), {
      'message-ttl': 5000,
      'max-length': 10,
      expires: 60_000,
    });
    expect(effectiveArguments(s)).toMatchObject({ 'x-message-ttl': 5000, 'x-max-length': 5, 'x-expires': 60_000 });
    expect(describeSource(s.settings['x-message-ttl']!.source)).toBe('policy p');
    expect(describeSource(s.settings['x-max-length']!.source)).toBe('argument x-max-length');
  });

  it('overflow: the argument wins on a classic queue, the policy on a quorum queue', () => {
    const d = { overflow: 'reject-publish' };
    expect(withPolicy(T.queue('q', { overflow: 'drop-head' }), d).settings['x-overflow']?.value).toBe('drop-head');
    expect(withPolicy(T.queue('q', { overflow: 'drop-head', quorum: true }), d).settings['x-overflow']?.value).toBe(
      'reject-publish',
    );
  });

  it('delivery-limit: the lower wins; on 4.x a limit beats -1 (unlimited)', () => {
    const q = T.queue('q', { quorum: true, deliveryLimit: -1 });
    const set = { policies: [pol('p', '.*', { 'delivery-limit': 5 })] };
    expect(queueEffectiveSettings(q, set, { profile: '4.x' }).settings['x-delivery-limit']?.value).toBe(5);
    expect(queueEffectiveSettings(q, set, { profile: '3.10' }).settings['x-delivery-limit']?.value).toBe(-1);
    expect(queueEffectiveSettings(q, set, { profile: '4.3' }).settings['x-delivery-limit']?.value).toBe(5);
    expect(
      queueEffectiveSettings(T.queue('q', { quorum: true, deliveryLimit: 3 }), set, { profile: '4.x' }).settings[
        'x-delivery-limit'
      ]?.value,
    ).toBe(3);
  });

  it('operator policy: merged with the policy (lower numeric value), then resolved against the argument', () => {
    // the broker case measured in effectiveSettings.integration.test.ts
    const s = withPolicy(
      T.queue('r1', { ttl: 100_000, dlx: 'adlx', overflow: 'drop-head' }),
      { 'message-ttl': 5000, 'max-length': 10, 'dead-letter-exchange': 'pdlx', overflow: 'reject-publish' },
      { 'message-ttl': 4000, 'max-length': 20, expires: 900_000 },
    );
    expect(s.policy).toBe('p');
    expect(s.operatorPolicy).toBe('op');
    expect(s.settings['x-message-ttl']).toEqual({ value: 4000, source: { kind: 'operator-policy', name: 'op' } });
    expect(s.settings['x-max-length']).toEqual({ value: 10, source: { kind: 'policy', name: 'p' } });
    expect(s.settings['x-expires']).toEqual({ value: 900_000, source: { kind: 'operator-policy', name: 'op' } });
    expect(s.settings['x-dead-letter-exchange']?.value).toBe('adlx');
    expect(s.settings['x-overflow']?.value).toBe('drop-head');
  });

  it('a policy for exchanges sets the alternate exchange unless the argument does', () => {
    const policies = [pol('ae', '.*', { 'alternate-exchange': 'pol-ae' }, { applyTo: 'exchanges' })];
    expect(exchangeEffectiveSettings(T.exchange('e'), { policies }).settings['alternate-exchange']?.value).toBe(
      'pol-ae',
    );
    expect(
      exchangeEffectiveSettings(T.exchange('e', 'direct', { ae: 'arg-ae' }), { policies }).settings[
        'alternate-exchange'
      ]?.value,
    ).toBe('arg-ae');
  });

  it('queue keys of an apply-to all policy do not land on exchanges, and the reverse', () => {
    const policies = [pol('all', '.*', { 'message-ttl': 1, 'alternate-exchange': 'ae' })];
    expect(Object.keys(exchangeEffectiveSettings(T.exchange('e'), { policies }).settings)).toEqual([
      'alternate-exchange',
    ]);
    expect(Object.keys(queueEffectiveSettings(T.queue('q'), { policies }).settings)).toEqual(['x-message-ttl']);
  });
});
