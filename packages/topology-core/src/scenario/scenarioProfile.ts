/**
 * Which simulator profile replays a scenario: the broker it was recorded on (`recorded_on`,
 * e.g. "RabbitMQ 4.3.6") decides (profileForVersion), unless the runner is told otherwise
 * (`--profile`).
 */
import { BROKER_PROFILE_IDS, type BrokerProfileId } from '../model/design.js';
import { profileForVersion } from '../sim/profileForVersion.js';

export type ScenarioProfile = BrokerProfileId;
export const SCENARIO_PROFILES: readonly ScenarioProfile[] = BROKER_PROFILE_IDS;

export function isScenarioProfile(v: string): v is ScenarioProfile {
  return (SCENARIO_PROFILES as readonly string[]).includes(v);
}

/** the profile for a `recorded_on` string; '3.10' (the recorded truth the format started with) when it names no version */
export function profileFromRecordedOn(recordedOn: string | undefined): ScenarioProfile {
  const version = /\d+\.\d+(?:\.\d+)?/.exec(recordedOn ?? '')?.[0];
  return profileForVersion(version) ?? '3.10';
}
