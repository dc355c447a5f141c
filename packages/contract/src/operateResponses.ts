/** /api/operate/*: import a vhost, depths, browse a dead-letter queue, re-drive. */
import type {
  BounceWarning,
  BrowseEffect,
  CanaryProgress,
  CauseGroup,
  DeadLetterMessage,
  ImportedDesign,
  RedriveCounts,
  RedrivePlan,
} from '@retry-studio/topology-core/operate';

/** The core's reading of the vhost (designFromBroker, its ok side), with where it came from and how long it took. */
export interface ImportResponse extends Extract<ImportedDesign, { readonly ok: true }> {
  /** the broker URL, password redacted */
  readonly broker: string;
  readonly rabbitVersion: string;
  readonly vhost: string;
  readonly timings: { readonly readMs: number; readonly scaffoldMs: number };
}

export interface QueueDepth {
  readonly name: string;
  readonly type: string;
  readonly ready: number;
  readonly unacked: number;
  readonly consumers: number;
  /** messages per second, as the management API's last sample */
  readonly publishRate: number;
  readonly deliverRate: number;
  /** the policy the broker applies to the queue, when it applies one (its own choice: ties included) */
  readonly policy?: string;
}
export interface DepthsResponse {
  readonly vhost: string;
  /** when the sample was read (ISO time) */
  readonly at: string;
  readonly queues: readonly QueueDepth[];
}

export interface BrowseResponse {
  readonly queue: string;
  readonly vhost: string;
  readonly queueType: string;
  /** messages in the queue when browsing started */
  readonly depth: number;
  /** what looking changed (the core's browseEffect) */
  readonly effect: BrowseEffect;
  readonly messages: readonly DeadLetterMessage[];
  readonly groups: readonly CauseGroup[];
  readonly brokerVersion: string;
  readonly elapsedMs: number;
}

export interface RedriveDryRunResponse {
  readonly dryRun: true;
  readonly queue: string;
  readonly depth: number;
  readonly effect: BrowseEffect;
  readonly plan: RedrivePlan;
  /** where copies would come back to the dead-letter queue, said before anything moves */
  readonly bounce: readonly BounceWarning[];
}

export type RedriveStatus = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface RedriveProgress extends RedriveCounts {
  readonly id: string;
  readonly queue: string;
  readonly status: RedriveStatus;
  /** messages in the queue when the job started */
  readonly before: number;
  readonly seen: number;
  /** left in the queue on purpose: filtered out, over the limit, or skipped with a reason */
  readonly left: number;
  readonly inFlight: number;
  /**
   * copies that may exist twice: published but not yet confirmed when the publish connection
   * died (their originals were published again), plus confirmed copies whose original was still
   * in the queue when the job stopped
   */
  readonly duplicatesPossible: number;
  /** originals the queue redelivered after a connection loss whose copy was already confirmed: acked, not copied again */
  readonly deduplicated: number;
  /** connections re-opened after a loss (consume and publish side) */
  readonly reconnects: number;
  /** a side is down and being re-opened */
  readonly reconnecting: boolean;
  /** the last connection loss, what it was and when (ms after the start) */
  readonly lastLoss?: string;
  readonly error?: string;
  /** why the job stopped reading early */
  readonly stoppedEarly?: string;
  readonly elapsedMs: number;
  readonly notes: readonly string[];
}

/** a plain re-drive's progress, or a canary's (it has `batches`) */
export type JobProgress = RedriveProgress | CanaryProgress;
export const isCanary = (p: JobProgress): p is CanaryProgress => 'batches' in p;

/** POST /api/operate/redrive (201): the job's first progress and where to poll it. */
export type RedriveStarted = JobProgress & {
  readonly progress: string;
};
