/** What a live trace is asked to do (the request's options; the prediction takes the same). */
import type { AmqpTable, FailureModel } from '@retry-studio/topology-core/model';
import type { NodeLoss } from '@retry-studio/topology-core/sim';

export interface TraceOptions {
  /** the trace's id, given where it was registered before it started (default: a fresh one) */
  readonly traceId?: string;
  readonly publisher?: string;
  readonly messages?: number;
  readonly ratePerSecond?: number;
  readonly headers?: AmqpTable;
  readonly expiration?: string;
  readonly priority?: number;
  readonly persistent?: boolean;
  readonly durationMs?: number;
  /** default failure model for workers whose behaviour has none (as in the simulator) */
  readonly failure?: FailureModel;
  /** seed of the failure model's draws (the prediction uses the same) */
  readonly seed?: number;
  /** how often queue depths are sampled (ms, default 1000) */
  readonly depthEveryMs?: number;
  /** how often the topology is read again to detect changes (ms, default 2000) */
  readonly topologyEveryMs?: number;
  /** quiet time after everything settled before the trace ends (ms, default 500) */
  readonly settleMs?: number;
  /** a queue the broker holds empty while the trace counts copies there, and nothing moves, for this long: they are gone (ms, default 3000; vanishedCopies.ts) */
  readonly vanishAfterMs?: number;
  /** a node loss the prediction includes (design queue names; checked by the core's parseNodeLoss) */
  readonly nodeLoss?: NodeLoss;
  /** how often a cluster's nodes and queue leaders are read, to observe a node loss (ms, default 1000) */
  readonly nodeEveryMs?: number;
}
