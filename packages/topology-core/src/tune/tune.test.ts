/**
 * Check the answer: what the tuner recommends, rehearsed again on its own (a fresh rehearsal of
 * the recommended design, read from the raw report), meets every goal under every outage length,
 * on each broker profile. Small loads (1,200 messages) so the test runs in seconds.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerProfileId } from '../model/design.js';
import { rehearse } from '../rehearse/index.js';
import { tuneLoad } from './measure.js';
import { tune } from './tune.js';
import { resolveTuneInput, type TuneInput } from './tuneInput.js';

const small = (profile: BrokerProfileId, strategies: string[], over: Partial<TuneInput> = {}) => {
  const r = resolveTuneInput({
    rate: 2,
    durationMs: 600_000,
    outageLengthsMs: [120_000, 60_000],
    profile,
    strategies,
    deadlineMs: 240_000,
    deadlineShare: 0.99,
    maxAmplification: 3,
    ...over,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
};

describe('tune: the recommendation meets every goal when rehearsed again', () => {
  it.each([
    ['3.10', ['dlx-ttl-wait-queue', 'chained-ttl', 'quorum-delivery-limit']],
    ['4.x', ['dlx-ttl-wait-queue', 'radlx-delay-queue']],
    ['4.3', ['quorum-delayed-retry', 'chained-ttl']],
  ] as const)(
    'on %s',
    (profileId, strategies) => {
      const input = small(profileId, [...strategies]);
      const result = tune({ profile: input.profile, goals: input.goals, templates: input.templates });
      expect(result.feasible).toBe(true);
      expect(result.recommendations.length).toBeGreaterThan(0);
      for (const rec of result.recommendations) {
        expect(strategies).toContain(rec.strategy);
        for (const L of input.profile.outageLengthsMs) {
          const report = rehearse(rec.design, tuneLoad(rec.design, input.profile, L, Infinity));
          // no poison here: everything can succeed, so nothing may be parked, dropped or expired
          expect(report.outcomes.parked + report.outcomes.dropped + report.outcomes.expired).toBe(0);
          expect(report.outcomes.acked).toBe(report.messages);
          expect(report.delayMs!.p99).toBeLessThanOrEqual(input.goals.deadlineMs!);
          expect(report.amplification).toBeLessThanOrEqual(input.goals.maxAmplification!);
        }
      }
    },
    120_000,
  );
});

describe('tune: infeasible answers name the goal', () => {
  it('a deadline shorter than the outage rules everything out before any rehearsal', () => {
    const input = small('3.10', ['dlx-ttl-wait-queue'], { deadlineMs: 30_000, outageLengthsMs: [300_000] });
    const r = tune({ profile: input.profile, goals: input.goals, templates: input.templates });
    expect(r.feasible).toBe(false);
    expect(r.stats.rehearsals).toBe(0);
    expect(r.infeasibleBecause?.[0]).toMatchObject({ goal: 'deadline' });
    expect(r.infeasibleBecause?.[0]?.message).toMatch(/deadline 30 s is shorter than the 5 min outage/);
  });
  it('a depth cap below what any outage leaves behind is named after the search', () => {
    const input = small('3.10', ['dlx-ttl-wait-queue'], { maxDepth: 5 });
    const r = tune({ profile: input.profile, goals: input.goals, templates: input.templates });
    expect(r.feasible).toBe(false);
    expect(r.stats.rehearsals).toBeGreaterThan(0);
    expect(r.infeasibleBecause?.map((b) => b.goal)).toContain('max-depth');
  }, 60_000);
});
