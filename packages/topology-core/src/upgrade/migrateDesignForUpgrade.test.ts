/** The migration keeps the old fates where the target allows it, and says what it cannot keep. */
import { describe, expect, it } from 'vitest';
import { migrateDesignForUpgrade } from './migrateDesignForUpgrade.js';
import { upgradeCheck } from './upgradeCheck.js';
import { checkDeclarations } from './declarationRules.js';
import { validateDesign } from '../model/validateDesign.js';
import { T } from '../../testing/builders.js';
import {
  designOf,
  delayedExchangeRetry,
  legacyDeclarations,
  nackDeliveryLimit,
  quorumDelayedRetry,
  quorumNoLimit,
  republishCountsXDeath,
} from '../../testing/upgradeFixtures.js';

const refusals = (
  d: ReturnType<typeof migrateDesignForUpgrade>['design'],
  from: '3.10' | '4.x' | '4.3',
  to: '3.10' | '4.x' | '4.3',
) => checkDeclarations({ topology: d.topology, from, to }).filter((f) => f.kind === 'refused');

describe('migrateDesignForUpgrade', () => {
  it('4.3 -> 3.10: a per-type apply-to becomes queues, and the note names the queues of other types it now reaches (rabbitmqadmin-ng 4.0.5 export)', () => {
    const topology = (pattern: string) =>
      T.topology(
        T.queue('cq.1', { args: { 'x-queue-type': 'classic' } }),
        T.queue('qq.1', { quorum: true, args: { 'x-delivery-limit': 5 } }),
        {
          ...T.policy('cq.length.limit', pattern, { 'max-length': 9999 }),
          'apply-to': 'classic_queues',
        },
      );
    const only = migrateDesignForUpgrade(designOf('v', topology('^cq'), [], [], '4.3'), { from: '4.3', to: '3.10' });
    expect(only.design.topology.policies?.[0]?.['apply-to']).toBe('queues');
    expect(only.notKept.join('\n')).toContain('in this file still only the classic_queues it had');
    const wide = migrateDesignForUpgrade(designOf('v', topology('\\.1$'), [], [], '4.3'), { from: '4.3', to: '3.10' });
    expect(wide.notKept.join('\n')).toContain('policy cq.length.limit: now applies to qq.1 (quorum) too');
  });

  it('legacy declarations -> 4.3: nothing refused any more, mirrored queues are quorum, the empty policy is gone', () => {
    const m = migrateDesignForUpgrade(designOf('lg', legacyDeclarations('lg')), { from: '3.10', to: '4.3' });
    expect(refusals(m.design, '3.10', '4.3').map((f) => f.id)).toEqual(['delayed-message-exchange']);
    const q = (n: string) => m.design.topology.queues.find((x) => x.name === n)!;
    expect(q('lg.dlq').arguments).toEqual({ 'x-queue-type': 'quorum' });
    expect(q('lg.located').arguments).toEqual({ 'x-queue-type': 'quorum' });
    expect(q('lg.tmp').durable).toBe(true);
    expect(m.design.topology.policies?.map((p) => p.name)).toEqual(['upgrade-delivery-limit']);
    expect(m.design.topology.policies?.[0]?.definition).toEqual({ 'delivery-limit': -1 });
    // the delayed-message exchange has no worker looping through it here: said, not rewritten
    expect(m.notKept.join('\n')).toContain('exchange lg.delay');
    expect(m.fatesMatch).toBe(true);
  });
  it('a policy keeps its other keys without the mirroring ones; master locator becomes leader locator; 3.10 gets apply-to queues', () => {
    const t = legacyDeclarations('lg');
    const mixed = { ...t, policies: [{ ...t.policies![0]!, definition: { 'ha-mode': 'all', 'message-ttl': 60000 } }] };
    const m = migrateDesignForUpgrade(designOf('lg', mixed), { from: '3.10', to: '4.x' });
    expect(m.design.topology.policies?.find((p) => p.name === 'lg.ha')?.definition).toEqual({
      'message-ttl': 60000,
      'delivery-limit': -1,
    });
    const unmirrored = migrateDesignForUpgrade(designOf('lg', { ...t, policies: [] }), { from: '3.10', to: '4.3' });
    expect(unmirrored.design.topology.queues.find((q) => q.name === 'lg.located')?.arguments).toEqual({
      'x-queue-leader-locator': 'balanced',
    });
    const back = migrateDesignForUpgrade({ ...quorumNoLimit(), profile: '4.x' }, { from: '4.x', to: '3.10' });
    expect(back.design.topology.policies).toEqual([
      {
        name: 'upgrade-delivery-limit-20',
        pattern: '^billing\\.q$',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'delivery-limit': 20 },
      },
    ]);
    expect(back.fatesMatch).toBe(true);
  });
  it('the migrated design is a valid design for the target profile', () => {
    const m = migrateDesignForUpgrade(designOf('lg', legacyDeclarations('lg')), { from: '3.10', to: '4.3' });
    expect(validateDesign(m.design).ok).toBe(true);
  });
  it('nack + delivery limit -> reject: the 3.10 fate holds on 4.3', () => {
    const m = migrateDesignForUpgrade(nackDeliveryLimit(), { from: '3.10', to: '4.3' });
    expect(m.changes.join('\n')).toContain('basic.nack requeue -> basic.reject requeue');
    expect(m.fates.map((f) => f.match)).toEqual([true, true, true]);
    expect(
      upgradeCheck(m.design, { from: '4.3', to: '3.10' }).findings.filter((f) => f.kind === 'behaviour-changed'),
    ).toEqual([]);
  });
  it("quorum default limit: an explicit delivery-limit policy keeps 3.x's unlimited requeues", () => {
    const m = migrateDesignForUpgrade(quorumNoLimit(), { from: '3.10', to: '4.x' });
    expect(m.design.topology.policies).toEqual([
      {
        name: 'upgrade-delivery-limit',
        pattern: '^billing\\.q$',
        'apply-to': 'quorum_queues',
        priority: 0,
        definition: { 'delivery-limit': -1 },
      },
    ]);
    expect(m.fatesMatch).toBe(true);
  });
  it('x-death counting -> a header of its own: the 3.10 fate holds on 4.3', () => {
    const m = migrateDesignForUpgrade(republishCountsXDeath(), { from: '3.10', to: '4.3' });
    expect(m.fates.filter((f) => !f.match)).toEqual([]);
  });
  it('delayed-message exchange -> quorum delayed retry on 4.3: attempts and end kept, the delay curve approximated and said', () => {
    const m = migrateDesignForUpgrade(delayedExchangeRetry(), { from: '3.10', to: '4.3' });
    expect(m.design.topology.exchanges.map((x) => x.name)).toEqual(['orders']);
    expect(m.design.topology.queues.find((q) => q.name === 'orders.q')?.arguments).toMatchObject({
      'x-queue-type': 'quorum',
      'x-delayed-retry-type': 'failed',
      'x-delayed-retry-min': 1000,
      'x-delayed-retry-max': 4000,
    });
    const always = m.fates.find((f) => f.failure.kind === 'always')!;
    expect([always.before.attempts, always.before.endsIn, always.before.delaysMs]).toEqual([
      4,
      'parked in orders.parking',
      [1000, 2000, 4000],
    ]);
    // quorum delayed retry is linear (min x failed deliveries, capped): 1000, 2000, 3000 where the plugin waited 4000
    expect([always.after.attempts, always.after.endsIn, always.after.delaysMs]).toEqual([
      4,
      'parked in orders.parking',
      [1000, 2000, 3000],
    ]);
    expect(m.notKept.join('\n')).toContain('only approximated');
    expect(refusals(m.design, '3.10', '4.3')).toEqual([]);
  });
  it('4.3 -> 3.10: delayed retry cannot be kept, and the migration says so', () => {
    const m = migrateDesignForUpgrade(quorumDelayedRetry(), { from: '4.3', to: '3.10' });
    expect(m.notKept.join('\n')).toContain('quorum delayed retry (x-delayed-retry-*) is ignored on 3.10');
    expect(m.fatesMatch).toBe(false);
  });
});
