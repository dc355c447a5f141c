import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { resolveTuneInput } from '@retry-studio/topology-core/tune';
import { fieldsFromProfile } from './fromTune';
import { readFields } from './rehearseFields';

describe('Compare from the Tune panel', () => {
  it("fills the Rehearse form with the tuner's load, which reads back to the same figures", () => {
    const built = buildTemplate('dlx-ttl-wait-queue', {});
    if (!built.ok) throw new Error('template');
    const d = built.template.design;
    const t = resolveTuneInput({
      rate: 200,
      outageLengthsMs: [60_000, 120_000],
      durationMs: 600_000,
      poison: 0.001,
      errorRate: 0.02,
    });
    if (!t.ok) throw new Error('tune input');
    const f = fieldsFromProfile(t.profile, d);
    const r = readFields(f, d);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.load).toMatchObject({ rate: 200, durationMs: 600_000, poison: 0.001, errorRate: 0.02 });
    const o = r.load.targets?.[0]?.consumerOutages?.[0];
    expect(o && o.endMs - o.startMs).toBe(120_000);
    expect(o?.startMs).toBe(t.profile.outageStartMs);
  });
});
