/** What workers share of a running trace. */
import type { ConsumeMessage } from 'amqplib';
import type { FailureModel } from '@retry-studio/topology-core/model';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { ManagedConnection } from '../broker/index.js';
import type { EmitOptions, Lane } from './accounting.js';
import type { EventLog } from './eventLog.js';
import type { HopReporter } from './hopReporter.js';

/** A SimEvent before the accounting stamps `t` and `seq`. */
export type EventInput = SimEvent extends infer E ? (E extends SimEvent ? Omit<E, 't' | 'seq'> : never) : never;

export interface TraceContext {
  readonly traceId: string;
  /** notices (the events go through `emit`) */
  readonly log: EventLog;
  readonly conn: ManagedConnection;
  readonly hops: HopReporter;
  /** the request's failure model, for workers whose behaviour has none (as the simulator's default) */
  readonly failure: FailureModel | undefined;
  /** the seed of the `percent` draws (the prediction's seed) */
  readonly seed: number;
  /** ms since the trace started */
  now(): number;
  /** broker name -> design name */
  back(name: string): string;
  emit(lane: Lane, e: EventInput, opts?: EmitOptions): void;
  /** A traced first delivery from `realQueue`, before its `delivered`: the pass that put it there, if not yet observed, is reported from it. */
  beforeDelivery(msg: ConsumeMessage, msgId: string, realQueue: string, rxAt: number): void;
  /** 1-based index of a test message (for `poison.every` and the draws) */
  messageIndex(msgId: string): number;
  /**
   * The message's next processing attempt, counted per logical message across every worker
   * (a failure model describes the message: a chain of tiers is one message's attempts),
   * exactly as the simulator counts FailureContext.attempt.
   */
  nextProcessingAttempt(msgId: string): number;
  /** whether a publisher node asked for mandatory returns */
  readonly mandatoryWanted: boolean;
}
