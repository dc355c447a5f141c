/** What a re-drive job is asked to do, and its tuning (tests and benches set the last four). */
import type { RedriveEdit, RedriveFilter, RedriveTarget } from '@retry-studio/topology-core/operate';

export interface RedriveOptions {
  readonly queue: string;
  readonly target: RedriveTarget;
  readonly filter?: RedriveFilter;
  /** fix, then retry: each copy is this edit of its original (sent at most once) */
  readonly edit?: RedriveEdit;
  /** move at most this many */
  readonly limit?: number;
  /** messages per second (default: as fast as confirms allow) */
  readonly ratePerSecond?: number;
  /** prefetch: unacked originals at a time (default 5000) */
  readonly window?: number;
  /** the connection's user: a copied user-id that differs would be refused (406) */
  readonly username: string;
  /**
   * prove acks with checkpoints (default true). Fault tests turn it off to hold every ack
   * unproven, the worst case of a consume connection lost between an ack and its proof.
   */
  readonly proveAcks?: boolean;
  /** finish when no message arrived for this long (ms, default 1000) */
  readonly idleMs?: number;
  /** fail when a lost connection is not back within this long (ms, default 60000) */
  readonly reconnectMs?: number;
}
