import { describe, expect, it } from 'vitest';
import { resolveTuneInput, type TuneInput } from './tuneInput.js';

const base: TuneInput = { rate: 500, outageLengthsMs: [600_000] };
const optionsOf = (i: Partial<TuneInput>): string[] => {
  const r = resolveTuneInput({ ...base, ...i });
  return r.ok ? [] : r.issues.map((x) => x.option);
};

describe('resolveTuneInput', () => {
  it('fills the defaults: a 1-hour rehearsal, the outage a minute in, 99% within the deadline, every template on 3.10', () => {
    const r = resolveTuneInput({ ...base, deadlineMs: 900_000 });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.profile).toMatchObject({
      durationMs: 3_600_000,
      outageStartMs: 60_000,
      profile: '3.10',
      errorRate: 0,
      poison: 0,
      bodyBytes: 1024,
    });
    expect(r.goals).toEqual({ deadlineMs: 900_000, deadlineShare: 0.99 });
    expect(r.templates.map((t) => t.id)).toContain('dlx-ttl-wait-queue');
    expect(r.templates.map((t) => t.id)).not.toContain('quorum-delayed-retry');
    expect(r.templates.map((t) => t.id)).not.toContain('radlx-simple');
  });
  it('names the option of each bad value', () => {
    expect(optionsOf({ deadlineMs: 0 })).toEqual(['deadline']);
    expect(optionsOf({ rate: 0 })).toEqual(['rate']);
    expect(optionsOf({ deadlineMs: 60_000, deadlineShare: 1.2 })).toEqual(['deadline-share']);
    expect(optionsOf({ deadlineShare: 0.9 })).toEqual(['deadline-share']);
    expect(optionsOf({ outageLengthsMs: [2 * 3_600_000] })).toEqual(['outage-length']);
    expect(optionsOf({ maxAmplification: 0.5 })).toEqual(['max-amplification']);
    expect(optionsOf({ strategies: ['no-such-thing'] })).toEqual(['strategies']);
    expect(optionsOf({ deadlineMs: 100, processingMs: 200 })).toEqual(['deadline']);
  });
  it('refuses a profile on which no requested strategy runs, saying why each does not', () => {
    const r = resolveTuneInput({ ...base, profile: '3.10', strategies: ['quorum-delayed-retry', 'radlx-simple'] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]!.option).toBe('profile');
    expect(r.issues[0]!.message).toMatch(/quorum-delayed-retry needs RabbitMQ 4\.3.*radlx-simple/);
  });
  it('keeps plugin templates out with noPlugins, and quorum delayed retry to 4.3', () => {
    const on = (profile: '4.x' | '4.3', noPlugins: boolean): string[] => {
      const r = resolveTuneInput({ ...base, profile, noPlugins });
      return r.ok ? r.templates.map((t) => t.id) : [];
    };
    expect(on('4.x', false)).toContain('radlx-simple');
    expect(on('4.x', true)).not.toContain('radlx-simple');
    expect(on('4.x', true)).not.toContain('delayed-exchange');
    expect(on('4.x', false)).not.toContain('quorum-delayed-retry');
    expect(on('4.3', false)).toContain('quorum-delayed-retry');
    expect(on('4.3', false)).not.toContain('radlx-simple');
  });
});
