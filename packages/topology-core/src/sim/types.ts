/**
 * The simulator's public input and output shapes, and the internal message record.
 */
import type { AmqpTable, AmqpValue, Topology } from '../model/definitions.js';
import type { ConsumerSpec, FailureModel } from '../model/consumer.js';
import type { PublishProperties } from '../model/publisher.js';
import type { BrokerProfileId } from '../model/design.js';
import type { SimEvent } from './events.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { NodeLoss } from './nodeLoss.js';
import type { FailureContext } from '../behaviour/evaluate.js';

export type SimStep =
  | {
      readonly kind: 'publish';
      readonly exchange: string;
      readonly routingKey: string;
      readonly body: string;
      readonly msgId?: string;
      readonly properties?: PublishProperties;
      readonly mandatory?: boolean;
    }
  | { readonly kind: 'wait'; readonly ms: number };

/** Options that refine a profile (the 4.x profile is 4.0–4.2 unless `v43` is set). */
export interface ProfileOptions {
  /**
   * RabbitMQ 4.3 quorum queues (docs quorum-queues, rabbitmq-website docs/quorum-queues/index.md):
   * delivery-count increments only for failed deliveries (basic.reject requeue=true, a crash),
   * not for basic.nack, and the delivery limit is evaluated on it; every return increments
   * acquired-count (`x-acquired-count`); native delayed retry (`x-delayed-retry-*`, #delayed-retry).
   * Only meaningful with profile '4.x'.
   */
  readonly v43?: boolean;
}

export interface SimulationInput {
  readonly topology: Topology;
  readonly consumers: readonly ConsumerSpec[];
  readonly steps: readonly SimStep[];
  /** default '3.10' (the recorded truth) */
  readonly profile?: BrokerProfileId;
  readonly profileOptions?: ProfileOptions;
  readonly seed?: number;
  /** default failure model for 'worker' consumers without their own */
  readonly failure?: FailureModel;
  /** 'before' (default): consumers attach before the first step; 'after': once every step ran */
  readonly startConsumers?: 'before' | 'after';
  /** stop (truncated) when virtual time would pass this; default 7 days */
  readonly maxTimeMs?: number;
  /** stop (truncated) after this many events; default 1,000,000 */
  readonly maxEvents?: number;
  /** exchange types available (plugins); default every simulated type */
  readonly plugins?: readonly string[];
  /**
   * Conformance runs: after the last step, stop once nothing has been delivered or published
   * by a client for this long (the scenario's `settle_ms`), as the broker runner does.
   */
  readonly settleMs?: number;
  /**
   * Conformance runs: when the run settles, the consumers stop and close their channels, so what
   * they still hold unacked (`hold`) goes back to its queue before `final` is read.
   */
  readonly closeConsumersAtEnd?: boolean;
  /** a cluster node lost for a while: its queues stop delivering (nodeLoss.ts) */
  readonly nodeLoss?: NodeLoss;
  /** keep every event in `result.events` (default true); false for big runs */
  readonly retainEvents?: boolean;
  /** called for every event as it happens (works with retainEvents:false) */
  readonly onEvent?: (e: SimEvent) => void;
  /** emit a 'depth' event whenever a queue's ready/unacked counts change (default false) */
  readonly emitDepth?: boolean;
  /**
   * A rehearsal's failure schedule (rehearse/): decides every worker's processing verdict at
   * virtual time `t` instead of its failure model (outages are a matter of time, not of the message).
   */
  readonly failureSchedule?: FailureSchedule;
  /**
   * A rehearsal's processing time of one delivery instead of the worker's `processingMs`: a
   * message that stands for a cohort of n messages keeps its consumer busy n times as long.
   */
  readonly processingMsOf?: (consumer: string, messageIndex: number, processingMs: number) => number;
  /**
   * A rehearsal's publisher: the earliest instant at or after `t` the publish step may run (a
   * connection blocked by a resource alarm, a queue's publish ceiling). Steps keep their own
   * schedule: what fell due while blocked is published as soon as the gate lets.
   */
  readonly publishGate?: (t: number, step: Extract<SimStep, { kind: 'publish' }>) => number;
}

/** true when the processing by `consumer` at virtual time `t` succeeds */
export type FailureSchedule = (consumer: string, ctx: FailureContext, t: number) => boolean;

/** A message as it sits in a queue (or was delivered), head first in `final`. */
export interface MessageSnapshot {
  readonly msgId: string;
  readonly body: string;
  /** every header except x-death */
  readonly headers: AmqpTable;
  readonly xDeath?: readonly XDeathEntry[];
  readonly expiration?: string;
  readonly exchange: string;
  readonly routingKey: string;
  readonly redelivered: boolean;
}

export interface IgnoredArgument {
  readonly queue: string;
  /** the argument (x-...) or policy key */
  readonly argument: string;
  readonly why: string;
}

export interface SimulationStats {
  /** hops: one message arriving at an exchange (one per exchange visited) or at a queue */
  readonly hops: number;
  readonly events: number;
  readonly published: number;
  readonly maxInFlight: number;
}

export interface SimulationResult {
  readonly events: SimEvent[];
  readonly final: Record<string, MessageSnapshot[]>;
  /** bodies whose publish was nacked (overflow), in order */
  readonly publishNacked: string[];
  /** bodies returned as unroutable (mandatory publishes), in order */
  readonly returned: string[];
  readonly endTime: number;
  /** stopped by maxTimeMs / maxEvents rather than running out of work */
  readonly truncated: boolean;
  /** when truncated: the virtual time the run had seen up to (its horizon when the time bound cut it) */
  readonly stoppedAt?: number;
  /** queue arguments this profile does not support, so the broker (and the simulator) ignore them; absent when none */
  readonly ignoredArguments?: readonly IgnoredArgument[];
  readonly stats: SimulationStats;
}

export interface QueueDepth {
  readonly ready: number;
  readonly unacked: number;
  /** messages held by a delayed exchange are not in any queue */
}

/**
 * A message as the broker holds it. Immutable once created: dead-lettering and republishing
 * make new records, so one record can sit in several queues (fanout) at no cost.
 */
/** What every copy of one logical message shares (republished copies and dead letters included). */
export interface Logical {
  readonly id: string;
  /** 1-based ordinal among the run's published messages */
  readonly index: number;
  /**
   * deliveries each consumer has seen (Counter 'attempt'): consumer ordinals 0-3 packed 7 bits
   * each into one small integer (no allocation per message); `counts` (per ordinal) once an
   * ordinal >= 4 or a count >= 128 shows up
   */
  seen: number;
  counts: number[] | undefined;
  /**
   * processing attempts by any worker consumer, in-process retries included: the failure model
   * describes the message ("fails its first k attempts"), wherever it is processed
   */
  runs: number;
}

/** How a message was published or dead-lettered: shared by every message that went the same way. */
export interface MsgShape {
  /** the exchange it was last published (or dead-lettered) to */
  readonly exchange: string;
  /** every routing key it is routed with: [rk, ...CC, ...BCC] (or [DLRK]) */
  readonly routingKeys: readonly string[];
  /** headers without x-death (BCC already removed) */
  readonly headers: { readonly [k: string]: AmqpValue };
  /** the x-death history, newest first (undefined when none) */
  readonly xDeath: readonly XDeathEntry[] | undefined;
  /** the x-death history came from a client publish (4.x ignores it on the next death) */
  readonly xDeathFromClient: boolean;
  readonly expiration: string | undefined;
  /** the CC header's keys are among routingKeys (false once a dead-letter routing key replaced them) */
  readonly ccInKeys: boolean;
  /** failed deliveries a dead letter carries into its next queue (4.3; 0 otherwise) */
  readonly deliveryCount: number;
}

export interface Msg extends MsgShape {
  readonly id: string;
  readonly logical: Logical;
  readonly body: string;
  /** UTF-8 size of the body, for x-max-length-bytes */
  readonly bytes: number;
}
