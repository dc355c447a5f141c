/**
 * Declarative consumer behaviour. Never user code: every behaviour is data that the
 * simulator, the server's trace workers and the exporters interpret the same way.
 */
import type { AmqpValue } from './definitions.js';

/** A number read from the delivered message (or the consumer's own memory of it). */
export type Counter =
  /** how many times this consumer has seen this message (1 on the first delivery) */
  | { readonly kind: 'attempt' }
  /** a numeric header, 0 when absent (e.g. `x-retries`) */
  | { readonly kind: 'header'; readonly name: string }
  /** `count` of the x-death entry for (queue, reason); 0 when absent; without queue/reason, the sum of all entries matching the given ones */
  | { readonly kind: 'deathCount'; readonly queue?: string; readonly reason?: DeathReason }
  /** `x-delivery-count` (quorum queues), 0 when absent */
  | { readonly kind: 'deliveryCount' }
  /**
   * deliveries this consumer holds unsettled (the `hold` action), this one included: a batch
   * consumer holds while `held` is below its batch size, then settles the batch with `multiple`
   */
  | { readonly kind: 'held' };

export type DeathReason = 'rejected' | 'expired' | 'maxlen' | 'delivery_limit';

/** A value computed when the action runs. Plain numbers and strings are literals. */
export type ValueExpr =
  | string
  | number
  /** `values[min(counter, values.length) - 1]`, e.g. a backoff curve indexed by retry number */
  | { readonly kind: 'curve'; readonly values: readonly number[]; readonly by: Counter }
  /** `min(maxMs, initialMs * multiplier^(counter-1))` */
  | {
      readonly kind: 'exponential';
      readonly initialMs: number;
      readonly multiplier: number;
      readonly maxMs: number;
      readonly by: Counter;
    }
  /** counter + add (e.g. `x-retries` + 1) */
  | { readonly kind: 'counter'; readonly by: Counter; readonly add?: number }
  /** the value of a header of the delivered message (string, or undefined) */
  | { readonly kind: 'fromHeader'; readonly name: string };

export type Condition =
  | { readonly kind: 'lt'; readonly counter: Counter; readonly value: number }
  | { readonly kind: 'gte'; readonly counter: Counter; readonly value: number }
  | { readonly kind: 'redelivered'; readonly is: boolean }
  | { readonly kind: 'hasHeader'; readonly name: string; readonly is: boolean };

/**
 * `multiple` (ack, reject, requeue): settle this delivery and every earlier unsettled delivery on
 * the consumer's channel (AMQP's multiple flag: basic.ack multiple, or basic.nack multiple with
 * requeue false/true; basic.reject has no multiple, so it cannot go with via 'reject').
 */
export type ConsumerAction =
  | { readonly kind: 'ack'; readonly multiple?: boolean }
  /**
   * The application gives up and acks (basic.ack): the broker forgets the message and nothing keeps
   * it. Spring's stateless retry with no recoverer, MassTransit's DiscardFaultedMessages, a Celery
   * task out of retries. Said `discarded`, never `acked`: the broker saw an ack, the work was not done.
   */
  | { readonly kind: 'discard' }
  /** basic.reject requeue=false (with multiple: basic.nack requeue=false): dead-letters where the queue has a DLX */
  | { readonly kind: 'reject'; readonly multiple?: boolean }
  /**
   * basic.nack requeue=true (default), or basic.reject requeue=true with via 'reject'. The two
   * are the same before RabbitMQ 4.3; from 4.3 only basic.reject increments a quorum queue's
   * delivery-count (which the delivery limit and delayed retry read), basic.nack does not
   * (docs quorum-queues#poison-message-handling, "When is delivery count incremented?").
   */
  | { readonly kind: 'requeue'; readonly via?: 'nack' | 'reject'; readonly multiple?: boolean }
  /** leave the delivery unacked: a later action with `multiple` settles it (or closing the channel requeues it) */
  | { readonly kind: 'hold' }
  /**
   * keep the delivery unacked for `ms`, then do `then` (Rascal's recovery `defer`: a timer in the
   * application before it republishes, forwards or nacks; the prefetch slot stays taken meanwhile)
   */
  | { readonly kind: 'defer'; readonly ms: number; readonly then: ConsumerAction }
  /**
   * Publish a copy (same body; headers copied unless copyHeaders=false, then merged with
   * `headers`), wait for the confirm, then ack the original.
   */
  | {
      readonly kind: 'republish';
      readonly exchange: string;
      /** fixed routing key; else `routingKeyFromHeader`; else the key it arrived with */
      readonly routingKey?: string;
      readonly routingKeyFromHeader?: string;
      readonly headers?: { readonly [name: string]: AmqpValue | ValueExpr };
      /** per-message TTL in ms (written as the string property `expiration`) */
      readonly expiration?: ValueExpr;
      /** default true */
      readonly copyHeaders?: boolean;
      /** Spring's RepublishMessageRecoverer: add x-exception-message/-stacktrace, x-original-exchange/-routingKey */
      readonly exceptionHeaders?: boolean;
    }
  /**
   * Spring-style stateless retry inside the listener: the message stays unacked while the
   * consumer re-runs processing up to maxAttempts times in total, sleeping backoff between
   * attempts; then `recover` runs (reject, requeue or republish).
   */
  | {
      readonly kind: 'retryInProcess';
      readonly maxAttempts: number;
      /**
       * the wait before attempt n+1 is min(maxMs, initialMs * multiplier^(n-1)); with `delaysMs`
       * (MassTransit's Intervals/Incremental, Celery's countdowns) it is delaysMs[n-1], the last repeating
       */
      readonly backoff: {
        readonly initialMs: number;
        readonly multiplier: number;
        readonly maxMs: number;
        readonly delaysMs?: readonly number[];
      };
      readonly recover: ConsumerAction;
    };

/** Whether processing a delivery fails, for workers; the run's model applies when absent. */
export type FailureModel =
  | { readonly kind: 'never' }
  | { readonly kind: 'always' }
  /**
   * fail the first n processing attempts of each message, then succeed. Attempts are counted per
   * logical message across every worker that processes it (each tier of a chain, in-process
   * retries included), not per consumer.
   */
  | { readonly kind: 'failFirst'; readonly n: number }
  /** fail with this probability (seeded RNG) */
  | { readonly kind: 'percent'; readonly percent: number }
  /** these message bodies (or every n-th message) always fail, the rest succeed */
  | { readonly kind: 'poison'; readonly bodies?: readonly string[]; readonly every?: number };

export interface Rule {
  readonly when?: Condition;
  readonly then: ConsumerAction;
}

export type ConsumerBehaviour =
  /**
   * The conformance format: the i-th delivery of a body on this queue gets actions[i];
   * the last action repeats once the list runs out.
   */
  | { readonly kind: 'script'; readonly actions: readonly ConsumerAction[] }
  /**
   * A worker: processing succeeds or fails by the failure model; on success `onSuccess`
   * (default ack), on failure the first rule whose condition holds.
   */
  | {
      readonly kind: 'worker';
      readonly failure?: FailureModel;
      readonly onSuccess?: ConsumerAction;
      readonly onFailure: readonly Rule[];
      /** simulated processing time per delivery, ms (default 0) */
      readonly processingMs?: number;
    }
  /** Infrastructure consumer (error-queue shovel, requeue consumer): never fails, first matching rule runs. */
  | { readonly kind: 'router'; readonly rules: readonly Rule[] };

/**
 * Where a consumer of a stream starts reading (`x-stream-offset`, docs streams "Consuming"):
 * `first` the oldest message kept, `last` the last chunk written, `next` (the broker's default)
 * only messages written after it attaches, a number that offset.
 */
export type StreamOffset = 'first' | 'last' | 'next' | number;
export const STREAM_OFFSETS = ['first', 'last', 'next'] as const;

export interface ConsumerSpec {
  readonly id: string;
  readonly queue: string;
  readonly label?: string;
  /** basic.qos prefetch, default 1 */
  readonly prefetch?: number;
  /** a stream consumer's starting offset, default `next` (ignored on other queues) */
  readonly streamOffset?: StreamOffset;
  readonly behaviour: ConsumerBehaviour;
}
