import { describe, expect, it } from 'vitest';
import { parseBytes, parseDuration, parsePercent, parseRate } from './quantities.js';

const value = (r: { ok: boolean; value?: number; message?: string }): number | string => (r.ok ? r.value! : `error: ${r.message}`);

describe('quantities', () => {
  it.each([
    ['90s', 90_000], ['10m', 600_000], ['1h', 3_600_000], ['250ms', 250], ['1h30m', 5_400_000], ['1.5h', 5_400_000], ['1500', 1500], ['2min', 120_000],
  ])('duration %s = %i ms', (raw, ms) => expect(value(parseDuration(raw))).toBe(ms));
  it('refuses what is not a duration, naming it', () => {
    expect(value(parseDuration('10 minutes'))).toMatch(/not a duration: "10 minutes"/);
    expect(value(parseDuration('-5s'))).toMatch(/not a duration/);
    expect(value(parseDuration('5x'))).toMatch(/not a duration/);
  });
  it.each([
    ['500', 500], ['500/s', 500], ['30000/m', 500], ['3600/h', 1], ['2.5/s', 2.5],
  ])('rate %s = %f msg/s', (raw, r) => expect(value(parseRate(raw))).toBeCloseTo(r, 9));
  it('refuses a rate it cannot read', () => expect(value(parseRate('fast'))).toMatch(/not a rate/));
  it.each([
    ['2%', 0.02], ['0.1%', 0.001], ['100%', 1], ['5', 0.05], ['0', 0],
  ])('percentage %s = %f', (raw, f) => expect(value(parsePercent(raw))).toBeCloseTo(f, 12));
  it('refuses a share over 100% and a negative one', () => {
    expect(value(parsePercent('101%'))).toMatch(/at most 100%/);
    expect(value(parsePercent('-1%'))).toMatch(/not a percentage/);
  });
  it.each([
    ['512', 512], ['4kB', 4000], ['1MB', 1e6], ['2GiB', 2 * 1024 ** 3], ['1gb', 1e9],
  ])('size %s = %i bytes', (raw, b) => expect(value(parseBytes(raw))).toBe(b));
  it('refuses a size it cannot read', () => expect(value(parseBytes('1 GBs'))).toMatch(/not a size/));
});
