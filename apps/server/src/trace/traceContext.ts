/** What workers and the observer share of a running trace. */
import type { AmqpTable, PublishOrigin, SimEvent } from '@retry-studio/topology-core';
import type { ManagedConnection } from '../broker/index.js';
import type { EventLog } from './eventLog.js';
import type { MessageTracker } from './messageTracker.js';

/** A SimEvent before the session stamps `t` and `seq`. */
export type EventInput = SimEvent extends infer E ? (E extends SimEvent ? Omit<E, 't' | 'seq'> : never) : never;

export interface TraceContext {
  readonly traceId: string;
  readonly log: EventLog;
  readonly conn: ManagedConnection;
  readonly tracker: MessageTracker;
  /** ms since the trace started */
  now(): number;
  random(): number;
  /** broker name -> design name */
  back(name: string): string;
  emit(e: EventInput, rxAt?: number): void;
  /** 1-based index of a test message (for `poison.every`) */
  messageIndex(msgId: string): number;
  /**
   * The message's next processing attempt, counted per logical message across every worker
   * (a failure model describes the message: a chain of tiers is one message's attempts),
   * exactly as the simulator counts FailureContext.attempt.
   */
  nextProcessingAttempt(msgId: string): number;
  onReturn(msg: { fields: { exchange: string; routingKey: string }; properties: { headers?: Record<string, unknown> }; content: Buffer }, origin: PublishOrigin): void;
  /** at delivery: report a dead-letter hop the observation did not see */
  catchUpDeath(msgId: string, body: string, headers: AmqpTable, redelivered?: boolean): void;
  /** after basic.reject: report the drop when the queue cannot dead-letter */
  afterReject(msgId: string, body: string, realQueue: string): void;
  /** before a client publish: hops through the default exchange are not observable, report them */
  beforePublish(msgId: string, body: string, realExchange: string, routingKey: string, expiration?: string): void;
}
