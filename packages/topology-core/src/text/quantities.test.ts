import { describe, expect, it } from 'vitest';
import { readDuration, readOutage, readRate, readShare } from './quantities.js';

describe('load quantities', () => {
  it('reads durations, rates, shares and outages', () => {
    expect([
      readDuration('90s'),
      readDuration('10m'),
      readDuration('1h'),
      readDuration('500ms'),
      readDuration('2'),
    ]).toEqual([90_000, 600_000, 3_600_000, 500, 2000]);
    expect([readRate('500'), readRate('500/s'), readRate('2.5 /s')]).toEqual([500, 500, 2.5]);
    expect([readShare('2%'), readShare('0.02')]).toEqual([0.02, 0.02]);
    expect(readOutage('orders.q@5m+10m')).toEqual({ target: 'orders.q', startMs: 300_000, lengthMs: 600_000 });
  });

  it('says undefined for what is not that shape', () => {
    expect([
      readDuration('soon'),
      readDuration('10 days'),
      readRate('fast'),
      readShare('a lot'),
      readOutage('worker'),
      readOutage('@1m+1m'),
      readOutage('w@x+1m'),
    ]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
