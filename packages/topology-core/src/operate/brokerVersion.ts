/**
 * A live broker's version as operating it needs it: the simulator profile (one rule for that:
 * profileForVersion; 3.x -> '3.10', 4.0-4.2 -> '4.x', 4.3+ -> '4.3') and whether the 4.3
 * quorum rules apply (delivery-count counts only basic.reject, not basic.nack).
 */
import type { BrokerProfileId } from '../model/design.js';
import { profileForVersion } from '../sim/profileForVersion.js';

export interface BrokerVersionProfile {
  readonly profile: BrokerProfileId;
  /** 4.3 or later: quorum delivery-count counts only basic.reject (not basic.nack) */
  readonly v43: boolean;
  readonly major: number;
  readonly minor: number;
}

export function profileForBrokerVersion(version: string): BrokerVersionProfile {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  const profile = profileForVersion(version) ?? '3.10';
  return { profile, v43: profile === '4.3', major: m ? Number(m[1]) : 3, minor: m ? Number(m[2]) : 10 };
}
