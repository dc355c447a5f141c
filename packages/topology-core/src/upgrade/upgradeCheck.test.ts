/**
 * One test per declaration rule and per behaviour difference of issue 22; each names its source
 * (release notes, a recorded scenario, or the measurement in ../shared/reference/upgrade-3-to-4.md
 * that the server's upgradeCheck integration test repeats on both brokers).
 */
import { describe, expect, it } from 'vitest';
import { upgradeCheck } from './upgradeCheck.js';
import { checkDeclarations } from './declarationRules.js';
import {
  designOf,
  delayedExchangeRetry,
  legacyDeclarations,
  nackDeliveryLimit,
  quorumDelayedRetry,
  quorumNoLimit,
  republishCountsXDeath,
} from '../../testing/upgradeFixtures.js';
import type { UpgradeFinding } from './types.js';
import { T } from '../../testing/builders.js';

const legacy = legacyDeclarations('lg');
const decl = (to: '4.x' | '4.3' | '3.10', from: '3.10' | '4.x' | '4.3' = '3.10', t = legacy) =>
  checkDeclarations({ topology: t, from, to });
const byId = (fs: readonly UpgradeFinding[], id: string) => fs.filter((f) => f.id === id);

describe('declarations 3.x -> 4.x', () => {
  it("classic mirroring policy: refused with the broker's wording, its queues named (RN 4.0.1, measured)", () => {
    const [f] = byId(decl('4.3'), 'classic-mirroring-policy');
    expect(f?.kind).toBe('refused');
    expect(f?.kind === 'refused' && f.brokerWording).toContain(
      '[{<<"ha-mode">>,<<"all">>},{<<"ha-sync-mode">>,<<"automatic">>}] are not recognised policy settings',
    );
    expect(f?.objects).toEqual(['queue:lg.dlq', 'queue:lg.located', 'queue:lg.tmp']);
    expect(f?.sources.map((s) => s.kind)).toContain('release-notes');
  });
  it('a policy left empty without its mirroring keys is reported (RN 4.0.1)', () => {
    expect(byId(decl('4.x'), 'policy-empty-without-mirroring').map((f) => f.object)).toEqual(['policy lg.ha']);
    const mixed = {
      ...legacy,
      policies: [{ ...legacy.policies![0]!, definition: { 'ha-mode': 'all', 'message-ttl': 5 } }],
    };
    expect(byId(decl('4.x', '3.10', mixed), 'policy-empty-without-mirroring')).toEqual([]);
  });
  it('x-queue-version 1: refused on 4.3 (PRECONDITION_FAILED), deprecated on 4.0-4.2 (RN 4.3.0, measured)', () => {
    expect(byId(decl('4.3'), 'classic-queue-version-1').map((f) => [f.kind, f.object])).toEqual([
      ['refused', 'queue lg.dlq'],
    ]);
    expect(byId(decl('4.3'), 'classic-queue-version-1')[0]).toMatchObject({
      brokerWording: expect.stringContaining("PRECONDITION_FAILED - invalid arg 'x-queue-version'"),
    });
    expect(byId(decl('4.x'), 'classic-queue-version-1').map((f) => f.kind)).toEqual(['deprecated']);
  });
  it('delayed retry on 4.3: a policy 4.3.6 refuses is refused in its words; arguments it accepts but does not run as written are named (measured)', () => {
    const topology = {
      ...T.topology(
        T.queue('dr.q', { quorum: true, args: { 'x-delayed-retry-type': 'all' } }),
        T.queue('dr.p', { quorum: true }),
      ),
      policies: [
        {
          name: 'drp',
          pattern: '^dr\\.p$',
          'apply-to': 'quorum_queues' as const,
          priority: 0,
          definition: { 'delayed-retry-type': 'all', 'delayed-retry-min': 1000, 'delayed-retry-max': 500 },
        },
      ],
    };
    const fs = checkDeclarations({ topology, from: '4.x', to: '4.3' });
    expect(byId(fs, 'delayed-retry-refused')).toMatchObject([
      {
        kind: 'refused',
        object: 'policy drp',
        objects: ['queue:dr.p'],
        brokerWording: 'Validation failed\n\ndelayed-retry-max (500) must not be smaller than delayed-retry-min (1000)',
      },
    ]);
    expect(byId(fs, 'delayed-retry-not-as-written')).toMatchObject([
      { kind: 'ignored', object: 'queue dr.q', message: expect.stringMatching(/needs x-delayed-retry-min.*disabled/) },
    ]);
    expect(
      checkDeclarations({ topology, from: '4.3', to: '4.x' }).filter(
        (f) => f.id.startsWith('delayed-retry-') && f.id !== 'delayed-retry-ignored',
      ),
    ).toEqual([]);
  });
  it('x-queue-master-locator: refused on 4.x (measured: the channel is closed)', () => {
    expect(byId(decl('4.x'), 'queue-master-locator').map((f) => [f.kind, f.object])).toEqual([
      ['refused', 'queue lg.located'],
    ]);
  });
  it('x-queue-mode lazy: ignored (RN 3.12.0)', () => {
    expect(byId(decl('4.3'), 'lazy-queue-mode').map((f) => [f.kind, f.object])).toEqual([['ignored', 'queue lg.dlq']]);
  });
  it('transient non-exclusive queue: deprecated, not blocking (RN 4.3.0, measured permitted on 4.3.6)', () => {
    const fs = byId(decl('4.3'), 'transient-nonexclusive-queue');
    expect(fs.map((f) => [f.kind, f.object])).toEqual([['deprecated', 'queue lg.tmp']]);
  });
  it('quorum queue without a limit: default changes to 20 (PR 11937), both directions', () => {
    expect(byId(decl('4.x'), 'quorum-default-delivery-limit')[0]?.message).toContain('on 4.x 20');
    expect(byId(decl('3.10', '4.x'), 'quorum-default-delivery-limit')[0]?.message).toContain('requeued forever');
    const limited = {
      ...legacy,
      queues: legacy.queues.map((q) =>
        q.name === 'lg.q' ? { ...q, arguments: { ...q.arguments, 'x-delivery-limit': 5 } } : q,
      ),
    };
    expect(byId(decl('4.x', '3.10', limited), 'quorum-default-delivery-limit')).toEqual([]);
  });
  it('x-delayed-message exchange: refused on 4.3 (unknown exchange type), deprecated on 4.0-4.2 (plugin archived)', () => {
    expect(byId(decl('4.3'), 'delayed-message-exchange')[0]).toMatchObject({
      kind: 'refused',
      brokerWording: "PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'",
    });
    expect(byId(decl('4.x'), 'delayed-message-exchange')[0]?.kind).toBe('deprecated');
  });
  it('nothing of this is reported for a 3.10 target from 3.10-like declarations', () => {
    expect(decl('3.10', '4.3').filter((f) => f.id !== 'quorum-default-delivery-limit')).toEqual([]);
  });
});

describe('declarations 4.3 -> 3.x', () => {
  it('x-delayed-retry-* arguments are accepted and ignored (measured on 3.10.8; scenario quorum-delayed-retry-reject-requeue)', () => {
    expect(
      byId(decl('3.10', '4.3', quorumDelayedRetry().topology), 'delayed-retry-ignored').map((f) => [f.kind, f.object]),
    ).toEqual([['ignored', 'queue sms.q']]);
  });
  it('per-type apply-to (quorum_queues) is refused by 3.10 (measured on 3.10.8 by --verify-on)', () => {
    const t = {
      ...quorumDelayedRetry().topology,
      policies: [
        { name: 'lim', pattern: '^sms', 'apply-to': 'quorum_queues' as const, definition: { 'delivery-limit': 5 } },
      ],
    };
    expect(byId(decl('3.10', '4.3', t), 'policy-apply-to-refused')[0]).toMatchObject({
      kind: 'refused',
      brokerWording: expect.stringContaining("apply-to 'quorum_queues' unrecognised"),
    });
    expect(byId(decl('4.x', '4.3', t), 'policy-apply-to-refused')).toEqual([]);
  });
  it('4.x-only policy keys are refused by 3.x', () => {
    const t = {
      ...quorumDelayedRetry().topology,
      policies: [{ name: 'dr', pattern: '^sms', definition: { 'delayed-retry-type': 'all' } }],
    };
    expect(byId(decl('3.10', '4.3', t), 'policy-key-refused')[0]).toMatchObject({
      kind: 'refused',
      brokerWording: expect.stringContaining('are not recognised policy settings'),
    });
  });
});

describe('behaviour differences (simulated under both profiles)', () => {
  it('nack + x-delivery-limit on a quorum queue: dead-lettered on 3.10, retried forever on 4.3 (scenario quorum-delivery-limit)', () => {
    const r = upgradeCheck(nackDeliveryLimit(), { from: '3.10', to: '4.3' });
    const f = r.findings.find((x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always');
    expect(f?.message).toMatch(
      /^jobs\.q \(always failing.*on 3\.10 parked in jobs\.dlq after 3 attempt\(s\).*on 4\.3 still moving when the run's event bound stopped it.*it never ends.*a basic\.nack no longer counts toward x-delivery-limit/,
    );
    expect(f?.sources).toContainEqual(expect.objectContaining({ kind: 'scenario', name: 'quorum-delivery-limit' }));
    expect(r.blocking).toBe(true);
    // 4.0-4.2 still count a nack: nothing changes there
    expect(
      upgradeCheck(nackDeliveryLimit(), { from: '3.10', to: '4.x' }).findings.filter(
        (x) => x.kind === 'behaviour-changed',
      ),
    ).toEqual([]);
  });
  it('client-set x-death: the count goes on to 3 on 3.10, starts at 1 again on 4.x (scenario republish-xdeath-count-continues)', () => {
    const r = upgradeCheck(republishCountsXDeath(), { from: '3.10', to: '4.3' });
    const f = r.findings.find((x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always');
    expect(f?.message).toContain('on 3.10 parked in mail.parking after 3 attempt(s)');
    expect(f?.message).toContain('ignores an x-death header set by a client');
  });
  it('quorum default delivery limit: retried forever on 3.10, dead-lettered after 21 deliveries on 4.x (PR 11937)', () => {
    const f = upgradeCheck(quorumNoLimit(), { from: '3.10', to: '4.x' }).findings.find(
      (x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always',
    );
    expect(f?.message).toContain('on 4.x parked in billing.dlq after 21 attempt(s)');
    expect(f?.message).toContain('default of 20');
  });
  it('quorum delayed retry ignored on 3.10: the waits vanish (4.3 -> 3.10)', () => {
    const f = upgradeCheck(quorumDelayedRetry(), { from: '4.3', to: '3.10' }).findings.find(
      (x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always',
    );
    expect(f?.message).toContain('on 4.3 parked in sms.dlq after 4 attempt(s) (delays 200 ms, 400 ms, 500 ms)');
    expect(f?.message).toContain('ignores x-delayed-retry-*');
  });
  it('failing the first K: acked on both, but on 4.3 only because the worker stopped failing (the guard no longer holds)', () => {
    const r = upgradeCheck(nackDeliveryLimit(), { from: '3.10', to: '4.3', failFirst: 1 });
    const f = r.findings.find((x) => x.kind === 'behaviour-changed' && x.failure.kind === 'failFirst');
    expect(f?.kind === 'behaviour-changed' && [f.before.endsIn, f.after.endsIn]).toEqual([
      'acked by worker at attempt 2',
      'acked by worker at attempt 2 (only because the worker stopped failing: failing every time, it never ends)',
    ]);
  });
  it('a definitions file: consumers are assumed (reject workers on dead-letter queues), declarations still reported', () => {
    const r = upgradeCheck(designOf('defs', legacy), { from: '3.10', to: '4.3' });
    expect(r.consumersAssumed).toBe(true);
    expect(r.blocking).toBe(true);
  });
  it('the delayed-exchange design keeps its fate on 4.x (the plugin is simulated), the exchange itself is refused on 4.3', () => {
    const r = upgradeCheck(delayedExchangeRetry(), { from: '3.10', to: '4.3' });
    expect(r.findings.map((f) => f.id)).toEqual(['delayed-message-exchange']);
  });
  it('from equal to to is refused', () => {
    expect(() => upgradeCheck(nackDeliveryLimit(), { from: '4.3', to: '4.3' })).toThrow(/both 4.3/);
  });
});

describe('a file whose bindings name undeclared objects', () => {
  const skipped = [
    {
      index: 1,
      source: 'ex',
      destination: 'missing',
      destination_type: 'queue',
      routing_key: 'b',
      missing: { kind: 'queue', name: 'missing' },
    },
  ] as const;
  const design = designOf('dangling', T.topology(T.exchange('ex'), T.queue('q1'), T.bind('ex', 'q1', 'a')));

  it('3.10 -> 4.3: the import that loaded now fails (refused, blocking), saying what each line does', () => {
    const r = upgradeCheck(design, { from: '3.10', to: '4.3', skippedBindings: skipped });
    const f = r.findings.find((x) => x.id === 'binding-end-undeclared');
    expect(f).toMatchObject({ kind: 'refused', object: 'binding ex -> missing' });
    expect(f && f.kind === 'refused' && f.brokerWording).toContain('resources_missing');
    expect(f?.message).toMatch(/3\.x skips the binding.*4\.x creates every queue/);
    expect(r.blocking).toBe(true);
  });

  it('one queue bound with several keys is one line with its keys (ONS census: events -> Field.other x7)', () => {
    const seven = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k, index) => ({
      index,
      source: 'events',
      destination: 'Field.other',
      destination_type: 'queue' as const,
      routing_key: `event.${k}`,
      missing: { kind: 'queue' as const, name: 'Field.other' },
    }));
    const f = upgradeCheck(design, { from: '3.10', to: '4.3', skippedBindings: seven }).findings.find(
      (x) => x.id === 'binding-end-undeclared',
    );
    expect(f?.message).toContain(
      '7 binding(s) name a queue or exchange the file does not declare (events -> Field.other, keys "event.a", "event.b", "event.c" and 4 more (queue Field.other not declared))',
    );
  });

  it('4.3 -> 3.10: a note (the import starts succeeding); none without skipped bindings', () => {
    const back = upgradeCheck({ ...design, profile: '4.3' }, { from: '4.3', to: '3.10', skippedBindings: skipped });
    expect(back.findings.find((x) => x.id === 'binding-end-undeclared')?.kind).toBe('default-changed');
    expect(
      upgradeCheck(design, { from: '3.10', to: '4.3' }).findings.some((x) => x.id === 'binding-end-undeclared'),
    ).toBe(false);
  });
});

describe('which queues a policy governs: where it wins, not where its pattern matches', () => {
  // `ha` (priority 5) wins on orders.*; `ttl` (priority 1) matches them too but is outranked; `top` (9) wins orders.vip
  const t = T.topology(
    T.queue('orders.a'),
    T.queue('orders.vip'),
    T.policy('ha', '^orders\\.', { 'ha-mode': 'all' }, 5),
    T.policy('ttl', '^orders\\.', { 'message-ttl': 1000 }, 1),
    T.policy('top', '^orders\\.vip$', { 'max-length': 10 }, 9),
  );
  const f = checkDeclarations({ topology: t, from: '3.10', to: '4.3' });

  it('the mirroring refusal names only the queues the policy applies to', () => {
    const r = f.find((x) => x.id === 'classic-mirroring-policy')!;
    expect(r.objects).toEqual(['queue:orders.a']);
    expect(r.message).toContain('It applies to orders.a.');
  });

  it('an all-mirroring policy: the one that applies once it is gone is named with its lower priority, never a policy that outranks it', () => {
    const r = f.find((x) => x.id === 'policy-empty-without-mirroring')!;
    expect(r.message).toContain('without it, ttl (priority 1, below it) applies to orders.a');
    expect(r.message).not.toContain('top');
    expect(r.message).not.toContain('outranked or tied');
  });
});
