// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { direction, lineOfVersion, sourceLine } from './upgradeSource';

describe('the line a design comes from', () => {
  it("reads the file's or the broker's version", () => {
    expect(lineOfVersion('3.13.7')?.id).toBe('3.13');
    expect(lineOfVersion('3.12.1')?.profile).toBe('3.10');
    expect(lineOfVersion('3.8.9')?.id).toBe('3.10');
    expect(lineOfVersion('4.1.0')?.id).toBe('4.x');
    expect(lineOfVersion('4.3.6')?.id).toBe('4.3');
    expect(lineOfVersion('nonsense')).toBeUndefined();
  });

  it("falls back to the design's profile; 4.3 to 3.10 is a downgrade", () => {
    expect(sourceLine(undefined, '4.3').id).toBe('4.3');
    expect(sourceLine(undefined, undefined).id).toBe('3.10');
    expect(sourceLine('3.12.0', '3.10').id).toBe('3.12');
    expect(direction('4.3', '3.10')).toBe('downgrade');
    expect(direction('3.10', '4.3')).toBe('upgrade');
  });
});
