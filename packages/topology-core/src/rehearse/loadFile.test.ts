import { describe, expect, it } from 'vitest';
import { LOAD_FORMAT, loadFileOf, readLoadFile } from './loadFile.js';

describe('retry-load/1', () => {
  it('a versioned file is read as it is; what loadFileOf writes reads back', () => {
    const load = {
      rate: 5,
      durationMs: 10_000,
      targets: [{ target: 'w', consumerOutages: [{ startMs: 0, endMs: 1 }] }],
    };
    const r = readLoadFile(loadFileOf(load));
    expect(r).toEqual({ ok: true, load });
  });
  it('an unversioned file (before the format) is read by its old names, and says so', () => {
    const r = readLoadFile({
      rate: 5,
      durationMs: 10_000,
      targets: [{ target: 'w', outages: [{ startMs: 0, endMs: 1 }] }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.load.targets).toEqual([{ target: 'w', consumerOutages: [{ startMs: 0, endMs: 1 }] }]);
    expect(r.migrated).toMatch(/targets\[\]\.outages read as consumerOutages\); add "format": "retry-load\/1"/);
  });
  it('another format, or not an object: refused, named', () => {
    const r = readLoadFile({ format: 'retry-scenario/1' });
    expect(r.ok === false && r.issues[0]).toMatchObject({ path: 'format', code: 'load-format' });
    expect(r.ok === false && r.issues[0]!.message).toMatch(/a retry-scenario file is for conformance/);
    expect(readLoadFile([1]).ok).toBe(false);
    expect(LOAD_FORMAT).toBe('retry-load/1');
  });
});
