/**
 * Which simulator profile replays a scenario: the broker it was recorded on (`recorded_on`,
 * e.g. "RabbitMQ 4.3.6") decides, unless the runner is told otherwise (`--profile`).
 * 3.x -> '3.10'; 4.0-4.2 -> '4.x'; 4.3 and later -> '4.3' (the 4.x profile with the 4.3 rules).
 */
import type { BrokerProfileId } from '../model/design.js';
import type { ProfileOptions } from '../sim/types.js';

export type ScenarioProfile = '3.10' | '4.x' | '4.3';
export const SCENARIO_PROFILES: readonly ScenarioProfile[] = ['3.10', '4.x', '4.3'];

export function isScenarioProfile(v: string): v is ScenarioProfile {
  return (SCENARIO_PROFILES as readonly string[]).includes(v);
}

/** the profile for a `recorded_on` string; '3.10' (the recorded truth the format started with) when it names no version */
export function profileFromRecordedOn(recordedOn: string | undefined): ScenarioProfile {
  const m = /(\d+)\.(\d+)(?:\.\d+)?/.exec(recordedOn ?? '');
  if (!m) return '3.10';
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major < 4) return '3.10';
  if (major === 4 && minor < 3) return '4.x';
  return '4.3';
}

/** the simulator's profile id and options for a scenario profile */
export function simProfileOf(p: ScenarioProfile): { readonly profile: BrokerProfileId; readonly profileOptions?: ProfileOptions } {
  if (p === '4.3') return { profile: '4.x', profileOptions: { v43: true } };
  return { profile: p };
}
