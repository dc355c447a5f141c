/**
 * How a queue of the design keeps its messages on a broker version (its effective settings:
 * arguments and policies): quorum, a stream, or a classic queue, which on 3.x is v1 unless
 * declared x-queue-version 2 or lazy, and v2 from 3.13 on (4.0 removed v1 and lazy mode).
 */
import type { BrokerProfileId } from '../model/design.js';
import type { PolicyDef, QueueDef } from '../model/definitions.js';
import { queueEffectiveSettings } from '../model/effectiveSettings.js';
import type { QueueStorage } from './format.js';

export type StorageOf = QueueStorage | 'stream';

export function storageOf(
  q: QueueDef,
  policies: readonly PolicyDef[] | undefined,
  profile: BrokerProfileId,
  policyPins?: Readonly<Record<string, string>>,
): StorageOf {
  const s = queueEffectiveSettings(q, { policies, ...(policyPins ? { policyPins } : {}) }, { profile }).settings;
  const type = s['x-queue-type']?.value;
  if (type === 'quorum') return 'quorum';
  if (type === 'stream') return 'stream';
  if (profile !== '3.10') return 'classic';
  if (s['x-queue-mode']?.value === 'lazy') return 'classic-lazy';
  if (s['x-queue-version']?.value === 2) return 'classic-v2';
  return 'classic';
}

/** the storage said in words, for notes and tables */
export function storageText(s: StorageOf, profile: BrokerProfileId): string {
  switch (s) {
    case 'quorum':
      return 'quorum';
    case 'stream':
      return 'stream';
    case 'classic-lazy':
      return 'classic (lazy)';
    case 'classic-v2':
      return 'classic v2';
    case 'classic':
      return profile === '3.10' ? 'classic v1' : 'classic v2';
  }
}
