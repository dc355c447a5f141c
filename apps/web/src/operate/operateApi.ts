/** The server's operate API (import, depths, browse, re-drive). */
import type { BounceWarning, CanaryProgress, CauseGroup, DeadLetterMessage, Design, ImportRole, LintFinding, RedrivePlan } from '@retry-studio/topology-core';
import { call } from '../broker/api';

export interface OperateAt {
  broker?: string;
  managementUrl?: string;
  vhost?: string;
}

export interface ImportResponse {
  broker: string;
  rabbitVersion: string;
  vhost: string;
  design: Design;
  roles: Record<string, ImportRole>;
  v43: boolean;
  skipped: Array<{ kind: string; name: string; reason: string }>;
  lint: LintFinding[];
  timings: { readMs: number; scaffoldMs: number };
}

export interface QueueDepth {
  name: string;
  type: string;
  ready: number;
  unacked: number;
  consumers: number;
  publishRate: number;
  deliverRate: number;
}

export interface BrowseResponse {
  queue: string;
  vhost: string;
  queueType: string;
  depth: number;
  effect: { kind: string; message: string; refuseUnlessInsist: boolean };
  messages: DeadLetterMessage[];
  groups: CauseGroup[];
  brokerVersion: string;
  elapsedMs: number;
}

export interface RedriveProgress {
  id: string;
  queue: string;
  status: 'running' | 'paused' | 'done' | 'cancelled' | 'failed';
  before: number;
  seen: number;
  moved: number;
  left: number;
  filteredOut: number;
  inFlight: number;
  byDestination: Record<string, number>;
  skipped: Record<string, number>;
  duplicatesPossible: number;
  /** originals redelivered after a connection loss whose copy was already confirmed: acked, not copied again */
  deduplicated: number;
  reconnects: number;
  reconnecting: boolean;
  lastLoss?: string;
  error?: string;
  stoppedEarly?: string;
  elapsedMs: number;
  notes: string[];
}

export interface RedriveOptions {
  queue: string;
  to?: string;
  filter?: string;
  limit?: number;
  rate?: number;
  insist?: boolean;
  /** canary re-drive: the first batch (issue 23) */
  canary?: number;
  canaryWaitMs?: number;
  maxRefail?: number | string;
  /** fix, then retry */
  setHeaders?: Record<string, string>;
  patch?: unknown[];
}

/** a plain re-drive's progress, or a canary's (it has `batches`) */
export type JobProgress = RedriveProgress | CanaryProgress;
export const isCanary = (p: JobProgress): p is CanaryProgress => 'batches' in p;

const clean = (at: OperateAt) => ({
  ...(at.broker ? { broker: at.broker } : {}),
  ...(at.managementUrl ? { managementUrl: at.managementUrl } : {}),
  ...(at.vhost ? { vhost: at.vhost } : {}),
});

export const operateApi = {
  importBroker: (at: OperateAt) => call<ImportResponse>('POST', '/api/operate/import', clean(at)),
  depths: (at: OperateAt) => call<{ vhost: string; at: string; queues: QueueDepth[] }>('POST', '/api/operate/depths', clean(at)),
  browse: (at: OperateAt, queue: string, limit: number, insist = false) => call<BrowseResponse>('POST', '/api/operate/browse', { ...clean(at), queue, limit, ...(insist ? { insist } : {}) }),
  dryRun: (at: OperateAt, o: RedriveOptions) => call<{ plan: RedrivePlan; bounce: BounceWarning[]; effect: BrowseResponse['effect']; depth: number }>('POST', '/api/operate/redrive', { ...clean(at), ...o, dryRun: true }),
  redrive: (at: OperateAt, o: RedriveOptions) => call<JobProgress>('POST', '/api/operate/redrive', { ...clean(at), ...o }),
  progress: (id: string) => call<JobProgress>('GET', `/api/operate/redrive/${encodeURIComponent(id)}`),
  control: (id: string, action: 'pause' | 'resume' | 'cancel') => call<JobProgress>('POST', `/api/operate/redrive/${encodeURIComponent(id)}/${action}`, {}),
};
