import { describe, expect, it } from 'vitest';
import type { PolicyDef } from './definitions.js';
import { T } from '../../testing/builders.js';
import {
  argumentDifferences,
  describeChange,
  exchangeDeclarationChanges,
  policyChanges,
  queueDeclarationChanges,
  sameAmqpValue,
} from './settingChanges.js';

const policy = (definition: PolicyDef['definition'], over: Partial<PolicyDef> = {}): PolicyDef => ({
  name: 'p',
  pattern: '^wait$',
  'apply-to': 'queues',
  priority: 0,
  definition,
  ...over,
});

describe('what can change in place', () => {
  it('compares argument tables by value; x-queue-type classic equals absent', () => {
    expect(sameAmqpValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameAmqpValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(argumentDifferences({ 'x-queue-type': 'classic', 'x-message-ttl': 5 }, { 'x-message-ttl': 5 })).toEqual([]);
    expect(argumentDifferences({ 'x-message-ttl': 5 }, { 'x-message-ttl': 6, 'x-max-length': 1 })).toEqual([
      'x-max-length',
      'x-message-ttl',
    ]);
  });

  it('every queue argument and flag change needs a new queue', () => {
    const changes = queueDeclarationChanges(T.queue('q', { ttl: 100 }), {
      ...T.queue('q', { ttl: 200, dlx: 'd' }),
      durable: false,
    });
    expect(changes.map((c) => `${c.field} ${c.effect}`)).toEqual([
      'durable recreate',
      'arguments.x-dead-letter-exchange recreate',
      'arguments.x-message-ttl recreate',
    ]);
    expect(describeChange(changes[2]!)).toBe('x-message-ttl: 100 -> 200');
    expect(queueDeclarationChanges(T.queue('q', { ttl: 100 }), T.queue('q', { ttl: 100 }))).toEqual([]);
  });

  it('an exchange type or argument change needs a new exchange', () => {
    expect(exchangeDeclarationChanges(T.exchange('x', 'direct'), T.exchange('x', 'topic')).map((c) => c.field)).toEqual(
      ['type'],
    );
  });

  it('a policy changes in place, key by key; placement keys reach only new queues', () => {
    expect(policyChanges(policy({ 'message-ttl': 1000 }), policy({ 'message-ttl': 5000 }))).toEqual([
      { field: 'definition.message-ttl', from: 1000, to: 5000, effect: 'in-place' },
    ]);
    expect(
      policyChanges(policy({ 'message-ttl': 1 }), policy({ 'message-ttl': 1, 'queue-leader-locator': 'balanced' }))[0]
        ?.effect,
    ).toBe('new-declarations-only');
    expect(
      policyChanges(policy({ 'message-ttl': 1 }), policy({ 'message-ttl': 1 }, { priority: 3 })).map((c) => c.field),
    ).toEqual(['priority']);
    expect(policyChanges(policy({ 'message-ttl': 1 }), policy({ 'message-ttl': 1 }))).toEqual([]);
  });
});
