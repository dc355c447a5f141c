/**
 * Which copies came back from a canary re-drive. The tap names each copy that died again; a
 * dead-letter queue fed through the default exchange cannot be tapped and its returns are only
 * counted by depth. Those copies are in the queue again after the run, carrying how many times
 * they were re-driven (x-redrive-count): the browse after the run names them.
 */
import { REDRIVE_COUNT_HEADER, type CanaryProgress, type DeadLetterMessage } from '@retry-studio/topology-core/operate';

export interface CanaryReturns {
  /** returns counted but not seen one by one */
  readonly unnamed: number;
  /** the copies in the browse after the run that were re-driven (empty while it runs, or without a browse) */
  readonly listed: readonly DeadLetterMessage[];
}

export function canaryReturns(
  job: Pick<CanaryProgress, 'back' | 'returned'>,
  listing: readonly DeadLetterMessage[] | undefined,
): CanaryReturns {
  const unnamed = Math.max(0, job.back - job.returned.length);
  if (unnamed === 0 || !listing) return { unnamed, listed: [] };
  return { unnamed, listed: listing.filter((m) => typeof m.headers[REDRIVE_COUNT_HEADER] === 'number') };
}
