import { describe, expect, it } from 'vitest';
import { buildTemplate } from '../templates/registry.js';
import { screen } from './screen.js';
import type { FailureProfile } from './types.js';

const profile: FailureProfile = {
  rate: 100,
  durationMs: 3_600_000,
  outageStartMs: 60_000,
  outageLengthsMs: [600_000],
  errorRate: 0,
  poison: 0,
  processingMs: 0,
  bodyBytes: 1024,
  profile: '3.10',
};
const always = (id: string, params: Record<string, unknown>) => {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.documented.find((d) => d.failure.kind === 'always');
};

describe('screen', () => {
  it('cuts retries whose span ends before the outage does (5 x 1 min < 10 min), naming the no-loss goal', () => {
    const s = screen(always('dlx-ttl-wait-queue', { maxRetries: 5, delayMs: 60_000 }), profile, {
      deadlineShare: 0.99,
    });
    expect(s).toMatchObject({ kept: false, goal: 'no-loss' });
    expect(s.kept ? '' : s.reason).toMatch(/6 attempts span 5 min, shorter than a 10 min outage/);
  });
  it('keeps a span that outlasts the outage, with its attempts and span', () => {
    const s = screen(always('dlx-ttl-wait-queue', { maxRetries: 11, delayMs: 60_000 }), profile, {
      deadlineShare: 0.99,
    });
    expect(s).toMatchObject({ kept: true, figures: { attempts: 12, spanMs: 660_000 } });
  });
  it('cuts immediate requeues (no delay) as parking the outage', () => {
    expect(
      screen(always('quorum-delivery-limit', { deliveryLimit: 1000 }), profile, { deadlineShare: 0.99 }),
    ).toMatchObject({ kept: false, goal: 'no-loss' });
  });
  it('cuts what an error rate parks: 360,000 messages at 10% error, 4 attempts leave 36 failing every one', () => {
    const s = screen(
      always('dlx-ttl-wait-queue', { maxRetries: 3, delayMs: 300_000 }),
      { ...profile, errorRate: 0.1 },
      { deadlineShare: 0.99 },
    );
    expect(s.kept ? '' : s.reason).toMatch(/about 36 messages fail all 4 attempts/);
  });
  it('cuts on amplification when poison alone exceeds the cap: 10% poison x 21 attempts >= 3', () => {
    const s = screen(
      always('dlx-ttl-wait-queue', { maxRetries: 20, delayMs: 60_000 }),
      { ...profile, poison: 0.1 },
      { deadlineShare: 0.99, maxAmplification: 2.5 },
    );
    expect(s).toMatchObject({ kept: false, goal: 'max-amplification' });
  });
});
