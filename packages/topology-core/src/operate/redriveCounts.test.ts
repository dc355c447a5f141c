import { describe, expect, it } from 'vitest';
import { redriveShortfall, type RedriveCounts } from './redriveCounts.js';

const counts = (moved: number, skipped: Record<string, number>): RedriveCounts => ({
  moved,
  filteredOut: 0,
  byDestination: {},
  skipped,
});

describe('redriveShortfall', () => {
  it('moved what it selected: not short', () => {
    expect(redriveShortfall(counts(20, {}), 20)).toMatchObject({ short: false, why: 'moved 20 of 20 selected' });
  });

  it('some selected were skipped: short, with why', () => {
    expect(redriveShortfall(counts(5, { 'destination missing': 3 }))).toMatchObject({
      short: true,
      why: 'moved 5 of 8 selected: 3 destination missing',
    });
  });

  it('under a limit, skipped ones read on the way are said as such (not "0 of 2000 selected")', () => {
    const r = redriveShortfall(counts(0, { 'destination missing': 2000 }), 20);
    expect(r.short).toBe(true);
    expect(r.why).toBe(
      'moved 0 of the 20 the limit asked for; 2000 message(s) read on the way were skipped: 2000 destination missing',
    );
  });
});
