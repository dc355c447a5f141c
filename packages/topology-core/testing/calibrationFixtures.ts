/**
 * Fixture builders for calibrations: `uniformCalibration({ ramBytes: 600 })` instead of a copied
 * file: every storage, TTL and body size measured alike (a fixed part plus the body, where asked).
 */
import { CALIBRATION_FORMAT, type Calibration, type Figure, type QueueStorage } from '../src/calibration/format.js';

export interface UniformOptions {
  readonly version?: string;
  /** RAM per message on top of `bodyInRam` x the body */
  readonly ramBytes?: number;
  /** the share of the body kept in RAM (1: classic v1) */
  readonly bodyInRam?: number;
  readonly walRamBytes?: number;
  /** what a consumed message leaves behind (absent: not measured) */
  readonly consumedBytes?: number;
  /** disk per message on top of the body */
  readonly diskBytes?: number;
  readonly idleMemoryBytes?: number;
  readonly ceilings?: {
    readonly publishPerSec?: number;
    readonly deliverAckPerSec?: number;
    readonly deadLetterPerSec?: number;
    readonly requeuePerSec?: number;
  };
  readonly storages?: readonly QueueStorage[];
}

export const fig = (value: number): Figure => ({ value, min: value, max: value, runs: 1 });

export function uniformCalibration(o: UniformOptions = {}): Calibration {
  const storages = o.storages ?? ['classic', 'quorum'];
  const c = o.ceilings ?? {};
  return {
    format: CALIBRATION_FORMAT,
    broker: { version: o.version ?? '3.10.8' },
    measuredAt: '2026-01-01T00:00:00.000Z',
    machine: { cpus: 2, memoryBytes: 8 * 1024 ** 3, platform: 'test' },
    method: 'fixture',
    node: { idleMemoryBytes: o.idleMemoryBytes ?? 0, walMaxBytes: 512 * 1024 ** 2, diskFreeLimitBytes: 50_000_000 },
    footprint: storages.flatMap((storage) =>
      [false, true].flatMap((ttl) =>
        [100, 1024, 16384].map((bodyBytes) => ({
          storage,
          ttl,
          bodyBytes,
          messages: 20_000,
          ramBytesPerMessage: fig((o.ramBytes ?? 0) + (o.bodyInRam ?? 0) * bodyBytes),
          ...(storage === 'quorum' ? { walRamBytesPerMessage: fig(o.walRamBytes ?? 0) } : {}),
          ...(o.consumedBytes !== undefined ? { consumedBytesPerMessage: fig(o.consumedBytes) } : {}),
          diskBytesPerMessage: fig((o.diskBytes ?? 0) + bodyBytes),
        })),
      ),
    ),
    ceilings: storages.map((storage) => ({
      storage,
      publishPerSec: fig(c.publishPerSec ?? 10_000),
      deliverAckPerSec: fig(c.deliverAckPerSec ?? 15_000),
      deadLetterPerSec: fig(c.deadLetterPerSec ?? 15_000),
      requeuePerSec: fig(c.requeuePerSec ?? 12_000),
    })),
    delayedExchange: { measured: false, reason: 'fixture' },
  };
}
