/**
 * The broker line a design comes from, for the upgrade check: the lines people run (3.10, 3.12,
 * 3.13, 4.0-4.2, 4.3), each checked under the simulator profile that models it (the core's
 * profileForVersion: every 3.x is the recorded 3.10.8 semantics). Read from the file's
 * `rabbitmq_version` or the probed broker when known, else from the design's profile.
 */
import type { BrokerProfileId } from '@retry-studio/topology-core/model';
import { profileForVersion } from '@retry-studio/topology-core/sim';

export interface SourceLine {
  readonly id: string;
  readonly label: string;
  readonly profile: BrokerProfileId;
}

export const SOURCE_LINES: readonly SourceLine[] = [
  { id: '3.10', label: '3.10', profile: '3.10' },
  { id: '3.12', label: '3.12', profile: '3.10' },
  { id: '3.13', label: '3.13', profile: '3.10' },
  { id: '4.x', label: '4.0–4.2', profile: '4.x' },
  { id: '4.3', label: '4.3', profile: '4.3' },
];

/** the targets: the broker lines the check models */
export const TARGET_LINES: readonly SourceLine[] = SOURCE_LINES.filter(
  (l) => l.id === '3.10' || l.id === '4.x' || l.id === '4.3',
);

const RANK: Record<BrokerProfileId, number> = { '3.10': 0, '4.x': 1, '4.3': 2 };

/** A broker version (`3.13.7`, `4.3.6`) as the line it belongs to; undefined when it is not readable. */
export function lineOfVersion(version: string | undefined): SourceLine | undefined {
  const m = /^\s*(\d+)\.(\d+)/.exec(version ?? '');
  const profile = profileForVersion(version);
  if (!m || !profile) return undefined;
  const mm = `${m[1]}.${m[2]}`;
  return (
    SOURCE_LINES.find((l) => l.id === mm) ??
    SOURCE_LINES.find((l) => l.profile === profile && (l.id === '3.10' || l.id === '4.x' || l.id === '4.3'))
  );
}

/** The line a design comes from: the version known for it, else its profile's line. */
export function sourceLine(knownVersion: string | undefined, profile: BrokerProfileId | undefined): SourceLine {
  return lineOfVersion(knownVersion) ?? SOURCE_LINES.find((l) => l.id === (profile ?? '3.10'))!;
}

/** going from one line to the other is an upgrade, a downgrade, or no change of semantics */
export function direction(from: BrokerProfileId, to: BrokerProfileId): 'upgrade' | 'downgrade' | 'same' {
  return RANK[to] > RANK[from] ? 'upgrade' : RANK[to] < RANK[from] ? 'downgrade' : 'same';
}
