import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { MAX_BINS, PerSecond, perSecondBinMs } from './rates.js';
import { rehearse } from './rehearse.js';

describe('PerSecond', () => {
  it('counts one-second bins up to MAX_BINS seconds, wider whole-second windows beyond', () => {
    expect(perSecondBinMs(3_600_000)).toBe(1000);
    expect(perSecondBinMs(MAX_BINS * 1000)).toBe(1000);
    expect(perSecondBinMs(MAX_BINS * 1000 + 1)).toBe(2000);
    const hours1e6 = 1_000_000 * 3_600_000;
    const bin = perSecondBinMs(hours1e6);
    expect(bin % 1000).toBe(0);
    expect(hours1e6 / bin).toBeLessThanOrEqual(MAX_BINS);
  });

  it("a window reports its average per second, and a cohort's span is spread over the windows it covers", () => {
    const p = new PerSecond(4000);
    p.add(0, 8); // 8 in [0, 4 s): 2 per second
    p.add(4000, 40, 8000); // 40 over [4 s, 12 s): 20 in each window, 5 per second
    expect(p.peak()).toEqual({ perSec: 5, atMs: 4000 });
    const s = new PerSecond();
    s.add(1500, 10, 1000); // half in second 1, half in second 2
    s.add(1999, 1);
    expect(s.peak()).toEqual({ perSec: 6, atMs: 1000 });
  });

  it('a rehearsal over a million hours ends with bounded windows and says so', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 2 });
    const durationMs = 1_000_000 * 3_600_000;
    const r = rehearse(d, { rate: 100, durationMs, afterMs: 0 });
    expect(r.messages).toBe(100 * (durationMs / 1000));
    expect(r.brokerOps.publishesPerSec).toBe(100);
    expect(r.notes.some((n) => /per-second peaks are averages over .* windows/.test(n))).toBe(true);
  });
});
