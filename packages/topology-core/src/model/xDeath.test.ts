import { describe, expect, it } from 'vitest';
import { isDeathReason, parseXDeath, parseXDeathEntry } from './xDeath.js';

describe('the x-death parser', () => {
  it('reads a broker-written entry field by field', () => {
    expect(
      parseXDeath([
        {
          count: 2,
          reason: 'expired',
          queue: 'wait',
          time: 1700000000,
          exchange: 'x',
          'routing-keys': ['k'],
          'original-expiration': '500',
        },
      ]),
    ).toEqual([
      {
        queue: 'wait',
        reason: 'expired',
        count: 2,
        exchange: 'x',
        'routing-keys': ['k'],
        time: 1700000000,
        'original-expiration': '500',
      },
    ]);
  });

  it('keeps an odd reason as written (it matches no real death), skips non-tables, absent header: undefined', () => {
    expect(parseXDeath([{ reason: 'odd', queue: 'q' }, 'nope', 3])).toEqual([
      { queue: 'q', reason: 'odd', count: 0, exchange: '', 'routing-keys': [] },
    ]);
    expect(isDeathReason('odd')).toBe(false);
    expect(parseXDeath(undefined)).toBeUndefined();
    expect(parseXDeath('x')).toBeUndefined();
    expect(parseXDeathEntry(null)).toEqual({ queue: '', reason: '', count: 0, exchange: '', 'routing-keys': [] });
  });
});
