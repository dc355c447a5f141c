/**
 * What a senior engineer would ask of the tuner's answer (issue 37 item 5): only strategies the
 * broker accepts (never the delayed-message exchange on 4.3; a caveat on 3.x), each answer
 * rehearsed again at twice the outage, margins to the deadline first, equivalent entries
 * collapsed, and a capacity shortfall named as one. Fake measures make the ranking exact.
 */
import { describe, expect, it } from 'vitest';
import { getTemplate } from '../templates/registry.js';
import { caveatOnProfile, strategiesOnProfile, whyNotOnProfile } from './strategiesOnProfile.js';
import { tune, tuneWith, type Measure } from './tune.js';
import { resolveTuneInput } from './tuneInput.js';
import type { TuneMetrics } from './types.js';

const metrics = (L: number, over: Partial<TuneMetrics> = {}): TuneMetrics => ({
  outageLengthMs: L,
  messages: 1000,
  outcomes: { acked: 1000, parked: 0, dropped: 0, expired: 0, inFlight: 0 },
  lostGood: 0,
  deliveries: 1200,
  amplification: 1.2,
  delayMs: { p50: 1, p95: 10, p99: 100, max: 1000 },
  withinDeadline: 1,
  drainMs: 5000,
  peakDepth: 100,
  peakHeld: 0,
  peakMemoryBytes: 1e6,
  peakDiskBytes: 1e6,
  brokerOps: 3000,
  ...over,
});

describe('tune: strategies the profile accepts', () => {
  it('never the delayed-message exchange on 4.3 (the upgrade check knows 4.3 refuses it); on 3.10 with a caveat', () => {
    const delayed = getTemplate('delayed-exchange')!;
    expect(whyNotOnProfile(delayed, '4.3', false)).toMatch(/RabbitMQ 4\.3 refuses it: .*x-delayed-message/);
    const on43 = strategiesOnProfile('4.3', false);
    expect(on43.ok && on43.templates.map((t) => t.id)).not.toContain('delayed-exchange');
    expect(on43.ok && on43.templates.map((t) => t.id)).not.toContain('dlx-delayed-requeue');
    const on310 = strategiesOnProfile('3.10', false);
    expect(on310.ok && on310.templates.map((t) => t.id)).toContain('delayed-exchange');
    expect(caveatOnProfile(delayed)).toMatch(/upstream archived it .* one node/);
    expect(caveatOnProfile(getTemplate('dlx-ttl-wait-queue')!)).toBeUndefined();
  });
});

describe('tune: the answer', () => {
  const input = resolveTuneInput({
    rate: 10,
    durationMs: 600_000,
    outageLengthsMs: [60_000],
    strategies: ['dlx-ttl-wait-queue', 'chained-ttl'],
    deadlineMs: 200_000,
  });
  if (!input.ok) throw new Error(JSON.stringify(input.issues));

  it('prefers a margin to the deadline when any candidate has one, collapses equivalent Pareto entries, and re-rehearses at twice the outage', () => {
    // chained-ttl: p99 at 99% of the deadline and the fewest operations; the wait queue: a margin, more operations
    const fake: Measure = (design, _p, L) => {
      const chained = design.topology.queues.some((q) => q.name.includes('.wait.'));
      return chained
        ? metrics(L, { delayMs: { p50: 1, p95: 10, p99: 198_000, max: 199_000 }, brokerOps: 1000 })
        : metrics(L, { delayMs: { p50: 1, p95: 10, p99: 150_000, max: 160_000 }, brokerOps: 2000 });
    };
    const r = tuneWith(
      { coarse: fake, full: fake },
      { profile: input.profile, goals: input.goals, templates: input.templates, limit: 40 },
    );
    expect(r.feasible).toBe(true);
    expect(r.recommendations[0]!.strategy).toBe('dlx-ttl-wait-queue');
    expect(r.recommendations[0]!.why).toMatch(/among those with a margin to the deadline/);
    const chained = r.recommendations.find((x) => x.strategy === 'chained-ttl');
    expect(chained?.why).toMatch(/no 10% margin/);
    for (const rec of r.recommendations) expect(rec.robustness?.outageLengthMs).toBe(120_000);
    // every wait-queue candidate shows the same figures: one entry
    const waits = r.pareto.filter((p) => p.strategy === 'dlx-ttl-wait-queue');
    expect(waits.length).toBeLessThanOrEqual(1);
  });

  it('a consumer capacity shortfall is named as such, before any rehearsal', () => {
    const short = resolveTuneInput({
      rate: 500,
      durationMs: 600_000,
      outageLengthsMs: [60_000],
      concurrency: 2,
      processingMs: 10,
      deadlineMs: 1_800_000,
    });
    if (!short.ok) throw new Error(JSON.stringify(short.issues));
    const r = tune({ profile: short.profile, goals: short.goals, templates: short.templates });
    expect(r.feasible).toBe(false);
    expect(r.stats.rehearsals).toBe(0);
    expect(r.infeasibleBecause?.[0]?.goal).toBe('capacity');
    expect(r.infeasibleBecause?.[0]?.message).toMatch(/serve at most 200 messages\/s .* 500\/s arrive/);
  });
});
