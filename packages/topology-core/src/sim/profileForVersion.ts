/**
 * The simulator profile that models a broker version: what the probe suggests for the broker it
 * talks to, and what an imported definitions file (`rabbitmq_version`) is simulated under.
 * 3.x -> '3.10' (the recorded 3.10.8 truth), 4.0-4.2 -> '4.x', 4.3 and later -> '4.3'.
 */
import type { BrokerProfileId } from '../model/design.js';

export function profileForVersion(version: string | undefined): BrokerProfileId | undefined {
  const m = /^\s*(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < 4) return '3.10';
  return major === 4 && minor < 3 ? '4.x' : '4.3';
}
