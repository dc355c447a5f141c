import { describe, expect, it } from 'vitest';
import { profileForVersion } from './profileForVersion.js';

describe('profileForVersion', () => {
  it('maps a broker version to the profile that models it', () => {
    expect(profileForVersion('3.10.8')).toBe('3.10');
    expect(profileForVersion('3.13.7')).toBe('3.10');
    expect(profileForVersion('4.0.5')).toBe('4.x');
    expect(profileForVersion('4.2.1')).toBe('4.x');
    expect(profileForVersion('4.3.6')).toBe('4.3');
    expect(profileForVersion('4.4.0')).toBe('4.3');
    expect(profileForVersion('5.0.0')).toBe('4.3');
  });

  it('no version, no suggestion', () => {
    expect(profileForVersion(undefined)).toBeUndefined();
    expect(profileForVersion('')).toBeUndefined();
    expect(profileForVersion('unknown')).toBeUndefined();
  });
});
