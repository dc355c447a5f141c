/**
 * Which simulation profile a live broker's version maps to: 3.x is the recorded 3.10 profile,
 * 4.0-4.2 the 4.x profile, 4.3+ the 4.x profile with the 4.3 rules (ProfileOptions.v43).
 */
import type { BrokerProfileId } from '../model/design.js';

export interface BrokerVersionProfile {
  readonly profile: BrokerProfileId;
  /** 4.3 or later: quorum delivery-count counts only basic.reject (not basic.nack) */
  readonly v43: boolean;
  readonly major: number;
  readonly minor: number;
}

export function profileForBrokerVersion(version: string): BrokerVersionProfile {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  const major = m ? Number(m[1]) : 3;
  const minor = m ? Number(m[2]) : 10;
  if (major >= 4) return { profile: '4.x', v43: major > 4 || minor >= 3, major, minor };
  return { profile: '3.10', v43: false, major, minor };
}
