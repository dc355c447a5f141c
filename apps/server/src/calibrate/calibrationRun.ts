/**
 * What every calibration measurement shares: the broker (its management API, verified to be the
 * AMQP endpoint's), its node, where its data lives, and a throwaway vhost per measurement
 * (inThrowawayVhost: deleted afterwards whatever happened, also on SIGINT/SIGTERM).
 */
import type { Figure, QueueStorage } from '@retry-studio/topology-core/calibration';
import { ManagedConnection, withVhost } from '../broker/index.js';
import { inThrowawayVhost } from '../upgrade/throwawayVhost.js';
import type { VerifyTarget } from '../upgrade/verifyUpgrade.js';

export interface CalibrationRun {
  readonly target: VerifyTarget;
  readonly node: string;
  /** the broker's data directory on this machine, for exact disk figures */
  readonly dataDir?: string;
  /** messages per footprint measurement */
  readonly messages: number;
  /** messages per ceiling measurement */
  readonly ceilingMessages: number;
  /** repetitions of each measurement (the spread) */
  readonly runs: number;
  readonly vhostPrefix: string;
  readonly log: (line: string) => void;
}

/** `fn` with a connection to a fresh throwaway vhost */
export async function inVhost<T>(
  run: CalibrationRun,
  label: string,
  fn: (conn: ManagedConnection, vhost: string) => Promise<T>,
): Promise<T> {
  const { result, cleanedUp, vhost } = await inThrowawayVhost(
    run.target.management,
    label,
    async (vh) => {
      const conn = new ManagedConnection(withVhost(run.target.url, vh), 'cli', { label: 'calibrate' });
      try {
        await conn.start();
        return await fn(conn, vh);
      } finally {
        await conn.close().catch(() => undefined);
      }
    },
    run.vhostPrefix,
  );
  if (!cleanedUp) run.log(`could not delete the throwaway vhost ${vhost}: delete it by hand`);
  return result;
}

/** the queue arguments that give a queue this storage (and a TTL long enough not to expire while measured) */
export function queueArguments(storage: QueueStorage, ttl: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (storage === 'quorum') args['x-queue-type'] = 'quorum';
  if (storage === 'classic-v2') args['x-queue-version'] = 2;
  if (storage === 'classic-lazy') args['x-queue-mode'] = 'lazy';
  if (ttl) args['x-message-ttl'] = 3_600_000;
  return args;
}

/** the median and spread of the runs' values */
export function figureOf(values: readonly number[], digits = 0): Figure {
  const s = [...values].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
  return {
    value: round(s[Math.floor((s.length - 1) / 2)] ?? 0),
    min: round(s[0] ?? 0),
    max: round(s[s.length - 1] ?? 0),
    runs: s.length,
  };
}

export const body = (bytes: number): Buffer => Buffer.alloc(bytes, 'r');
