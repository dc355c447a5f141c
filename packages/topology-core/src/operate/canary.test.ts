import { describe, expect, it } from 'vitest';
import {
  allowedBack,
  canaryBatchSize,
  checkCanaryOptions,
  FORM_CANARY_NAMES,
  isCopyBack,
  judgeBatch,
  parseMaxRefail,
  type CanaryOptions,
} from './canary.js';
import { REDRIVE_AT_HEADER, REDRIVE_COUNT_HEADER } from './redrive.js';

const opts = (o: Partial<CanaryOptions> = {}): CanaryOptions => ({
  size: 5,
  waitMs: 1000,
  maxRefail: { kind: 'count', count: 0 },
  ...o,
});

describe('canary options', () => {
  it('parses --max-refail as a count, a ratio or a percentage, and names the option when it is bad', () => {
    expect(parseMaxRefail('2')).toEqual({ ok: true, maxRefail: { kind: 'count', count: 2 } });
    expect(parseMaxRefail('0')).toEqual({ ok: true, maxRefail: { kind: 'count', count: 0 } });
    expect(parseMaxRefail('0.2')).toEqual({ ok: true, maxRefail: { kind: 'ratio', ratio: 0.2 } });
    expect(parseMaxRefail('10%')).toEqual({ ok: true, maxRefail: { kind: 'ratio', ratio: 0.1 } });
    for (const bad of ['', '-1', 'x', '1.5', '100%']) {
      const r = parseMaxRefail(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain('--max-refail');
    }
  });

  it("the web form's messages name its fields, never a CLI flag", () => {
    const r = parseMaxRefail('x', FORM_CANARY_NAMES);
    expect(!r.ok && r.message).toMatch(/^max back must be/);
    const [e] = checkCanaryOptions(opts({ maxRefail: { kind: 'count', count: 6 } }), 20, FORM_CANARY_NAMES);
    expect(e).toMatchObject({
      option: '--max-refail',
      message: 'max back 6 is above the canary of 5: the first batch could never stop the re-drive',
    });
    const stop = judgeBatch({ moved: 5, back: 2, waiting: 0, sinceMovedMs: 0 }, opts());
    expect(stop.kind === 'stop' && stop.reason).not.toMatch(/--/);
  });

  it('refuses N of 0, N above the selection, a negative wait and R above N, each naming its option', () => {
    expect(checkCanaryOptions(opts(), 20)).toEqual([]);
    expect(checkCanaryOptions(opts({ size: 0 }), 20).map((e) => e.option)).toEqual(['--canary']);
    expect(checkCanaryOptions(opts({ size: 21 }), 20)[0]).toMatchObject({
      option: '--canary',
      message: expect.stringContaining('20'),
    });
    expect(checkCanaryOptions(opts({ waitMs: -1 }), 20).map((e) => e.option)).toEqual(['--canary-wait-ms']);
    expect(checkCanaryOptions(opts({ maxRefail: { kind: 'count', count: 6 } }), 20).map((e) => e.option)).toEqual([
      '--max-refail',
    ]);
    expect(checkCanaryOptions(opts({ maxRefail: { kind: 'count', count: 5 } }), 20)).toEqual([]);
    expect(checkCanaryOptions(opts({ fromBatch: -1 }), 20).map((e) => e.option)).toEqual(['--canary-from-batch']);
  });
});

describe('canary batches', () => {
  it('grow N, 2N, 4N up to the cap and what is left', () => {
    const o = { size: 3, maxBatch: 20 };
    expect([0, 1, 2, 3, 4].map((i) => canaryBatchSize(o, i, 1000))).toEqual([3, 6, 12, 20, 20]);
    expect(canaryBatchSize(o, 2, 7)).toBe(7);
    expect(canaryBatchSize({ size: 3 }, 5, 1000)).toBe(96);
    // a cap below N does not shrink the canary
    expect(canaryBatchSize({ size: 10, maxBatch: 4 }, 1, 1000)).toBe(10);
  });

  it('allows R back as a count or a share of the batch', () => {
    expect(allowedBack({ kind: 'count', count: 2 }, 100)).toBe(2);
    expect(allowedBack({ kind: 'ratio', ratio: 0.1 }, 25)).toBe(2);
  });
});

describe('judgeBatch', () => {
  const o = { waitMs: 1000, maxRefail: { kind: 'count', count: 1 } } as const;
  it('stops as soon as more than R came back, before the wait is over, on what it saw', () => {
    expect(judgeBatch({ moved: 5, back: 2, waiting: 3, sinceMovedMs: 10 }, o)).toMatchObject({
      kind: 'stop',
      basis: 'returns-seen',
    });
  });
  it('keeps watching until the wait is over', () => {
    expect(judgeBatch({ moved: 5, back: 1, waiting: 0, sinceMovedMs: 999 }, o)).toEqual({ kind: 'watching' });
  });
  it('goes on after the wait, saying the verdict rests on a timeout', () => {
    const v = judgeBatch({ moved: 5, back: 1, waiting: 0, sinceMovedMs: 1000 }, o);
    expect(v).toMatchObject({ kind: 'continue', basis: 'timeout', through: 4 });
    if (v.kind === 'continue') expect(v.reason).toContain('timeout');
  });
  it('stops on a timeout when copies still sit in the destination: no consumer judged them', () => {
    expect(judgeBatch({ moved: 5, back: 0, waiting: 2, sinceMovedMs: 1500 }, o)).toMatchObject({
      kind: 'stop',
      basis: 'timeout',
    });
  });
});

describe('isCopyBack', () => {
  it('knows a copy of this run by the marker time, not a copy of an earlier re-drive', () => {
    expect(isCopyBack({ [REDRIVE_COUNT_HEADER]: 1, [REDRIVE_AT_HEADER]: 2000 }, 1500)).toBe(true);
    expect(isCopyBack({ [REDRIVE_COUNT_HEADER]: 3, [REDRIVE_AT_HEADER]: 1000 }, 1500)).toBe(false);
    expect(isCopyBack({ [REDRIVE_COUNT_HEADER]: 1, [REDRIVE_AT_HEADER]: 2000 }, 1500, 1800)).toBe(false);
    expect(isCopyBack({}, 0)).toBe(false);
  });
});
