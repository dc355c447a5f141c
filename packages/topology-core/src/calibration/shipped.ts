/**
 * The calibrations measured here and shipped as data (`pnpm calibrate --out` wrote each file; run
 * it again on a quiet machine to replace one), and which one a rehearsal uses: the one given
 * (`--calibration FILE`; from another version than the rules: said, and used), else the shipped
 * one of the rules' version (4.0-4.2 read the 4.3.6 one, said).
 */
import type { BrokerProfileId } from '../model/design.js';
import { profileForVersion } from '../sim/profileForVersion.js';
import type { Calibration } from './format.js';
import { readCalibration } from './readCalibration.js';
import rabbitmq3108 from './shipped/rabbitmq-3.10.8.json';
import rabbitmq436 from './shipped/rabbitmq-4.3.6.json';

function shipped(data: unknown, file: string): Calibration {
  const r = readCalibration(data);
  if (!r.ok)
    throw new Error(`shipped calibration ${file}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return r.calibration;
}

export const SHIPPED_CALIBRATIONS: readonly Calibration[] = [
  shipped(rabbitmq3108, 'rabbitmq-3.10.8.json'),
  shipped(rabbitmq436, 'rabbitmq-4.3.6.json'),
];

export interface CalibrationInUse {
  readonly calibration: Calibration;
  readonly source: 'shipped' | 'given';
  /** what the reader should know: another version, a fallback */
  readonly notes: readonly string[];
}

/** the shipped calibration that stands for a profile's version */
export function shippedFor(profile: BrokerProfileId): Calibration {
  const want = profile === '3.10' ? '3.10' : '4.3';
  return SHIPPED_CALIBRATIONS.find((c) => profileForVersion(c.broker.version) === want) ?? SHIPPED_CALIBRATIONS[0]!;
}

export function calibrationFor(profile: BrokerProfileId, given?: Calibration): CalibrationInUse {
  if (given) {
    const of = profileForVersion(given.broker.version);
    return {
      calibration: given,
      source: 'given',
      notes:
        of === profile
          ? []
          : [
              `the calibration was measured on RabbitMQ ${given.broker.version}, the rules are RabbitMQ ${profile === '4.x' ? '4.0-4.2' : profile}'s: its figures are used as they are`,
            ],
    };
  }
  const calibration = shippedFor(profile);
  return {
    calibration,
    source: 'shipped',
    notes:
      profile === '4.x'
        ? [
            `no calibration of RabbitMQ 4.0-4.2 ships: RabbitMQ ${calibration.broker.version}'s figures are used (4.3 halved a quorum queue's RAM per message; bring your own with --calibration)`,
          ]
        : [],
  };
}
