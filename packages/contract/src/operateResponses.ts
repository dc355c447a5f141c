/** /api/operate/*: import a vhost, depths, browse a dead-letter queue, re-drive. */
import type { BrowseEffect, CauseGroup, DeadLetterMessage, ImportedDesign, RedrivePlan } from '@retry-studio/topology-core';

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
}

export type RedriveStatus = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface RedriveProgress {
  readonly id: string;
  readonly queue: string;
  readonly status: RedriveStatus;
  /** messages in the queue when the job started */
  readonly before: number;
  readonly seen: number;
  readonly moved: number;
  /** left in the queue on purpose: filtered out, over the limit, or skipped with a reason */
  readonly left: number;
  readonly filteredOut: number;
  readonly inFlight: number;
  readonly byDestination: Readonly<Record<string, number>>;
  readonly skipped: Readonly<Record<string, number>>;
  /** copies that may exist twice (published but unconfirmed when a connection died, or confirmed with the original still queued) */
  readonly duplicatesPossible: number;
  /** originals redelivered after a connection loss whose copy was already confirmed: acked, not copied again */
  readonly deduplicated: number;
  readonly reconnects: number;
  readonly reconnecting: boolean;
  readonly lastLoss?: string;
  readonly error?: string;
  readonly stoppedEarly?: string;
  readonly elapsedMs: number;
  readonly notes: readonly string[];
}

/** POST /api/operate/redrive (201): the job's first progress and where to poll it. */
export interface RedriveStarted extends RedriveProgress {
  readonly progress: string;
}
