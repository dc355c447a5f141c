/**
 * The one event vocabulary. The simulator emits it; the server's live trace emits the same
 * kinds (with real headers) from a real broker; the canvas and timeline animate either.
 */
import type { AmqpTable } from '../model/definitions.js';
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';

/** Who published a message: a publisher node, a consumer's republish, or a test step. */
export type PublishOrigin =
  | { readonly kind: 'publisher'; readonly id: string }
  | { readonly kind: 'consumer'; readonly id: string }
  | { readonly kind: 'step' };

export type DropReason =
  /** routed to no queue (and no alternate exchange took it) */
  | 'no-route'
  /** the queue's dead-letter exchange does not exist */
  | 'missing-dlx'
  /** rejected / expired / over limit on a queue without a DLX */
  | 'no-dlx'
  /** fully automatic dead-letter cycle (no rejection in it) */
  | 'cycle'
  /** x-overflow drop (drop-head without DLX, reject-publish) */
  | 'overflow'
  /** the queue was deleted (x-expires): its messages are discarded, never dead-lettered */
  | 'queue-deleted'
  /** RabbitMQ 3.10: an at-most-once dead letter routed to a stream is silently dropped (profiles.ts streamTakesDeadLetters) */
  | 'stream-dead-letter'
  /**
   * live trace only: the copy left its queue without an event a client sees (the queue purged, a
   * client outside the trace took it, or the broker lost it: an at-most-once dead letter in a
   * leader move); the broker's exact count showed the queue empty (server trace/vanishedCopies.ts)
   */
  | 'vanished';

interface EventBase {
  /** virtual milliseconds since the run started (wall ms since trace start for live) */
  readonly t: number;
  /** total order among events at the same t */
  readonly seq: number;
  /** the logical message (stable across requeues, dead-letterings and republished copies) */
  readonly msgId: string;
  readonly body: string;
}

export type SimEvent =
  | (EventBase & {
      readonly kind: 'published';
      readonly exchange: string;
      readonly routingKey: string;
      readonly origin: PublishOrigin;
      readonly headers: AmqpTable;
      readonly expiration?: string;
      readonly mandatory: boolean;
    })
  /** held by a delayed-message exchange until `until` */
  | (EventBase & {
      readonly kind: 'delayed';
      readonly exchange: string;
      readonly delayMs: number;
      readonly until: number;
    })
  /** one exchange's routing decision (one event per exchange visited, e2e and AE hops included) */
  | (EventBase & {
      readonly kind: 'routed';
      readonly exchange: string;
      readonly routingKeys: readonly string[];
      readonly queues: readonly string[];
      readonly exchanges: readonly string[];
      /** this exchange was reached as an alternate exchange of `alternateOf` */
      readonly alternateOf?: string;
    })
  | (EventBase & { readonly kind: 'unroutable'; readonly exchange: string; readonly routingKeys: readonly string[] })
  | (EventBase & {
      readonly kind: 'returned';
      readonly exchange: string;
      readonly routingKey: string;
      readonly replyCode: 312;
    })
  | (EventBase & { readonly kind: 'publish-nacked'; readonly queue: string; readonly reason: 'overflow' })
  | (EventBase & {
      readonly kind: 'enqueued';
      readonly queue: string;
      /** ready messages after this one was added */
      readonly depth: number;
      /** absolute virtual time at which it expires, if a TTL applies */
      readonly expiresAt?: number;
    })
  | (EventBase & {
      readonly kind: 'delivered';
      readonly queue: string;
      readonly consumer: string;
      readonly redelivered: boolean;
      readonly headers: AmqpTable;
      readonly xDeath?: readonly XDeathEntry[];
      readonly expiration?: string;
      readonly routingKey: string;
      readonly exchange: string;
    })
  /**
   * the consumer ran its processing; `ok` is the failure model's verdict. `attempt` is the
   * message's processing attempt (per logical message, across every worker; FailureContext.attempt)
   */
  | (EventBase & {
      readonly kind: 'processed';
      readonly queue: string;
      readonly consumer: string;
      readonly attempt: number;
      readonly ok: boolean;
    })
  /**
   * `multiple`: settled by a basic.ack / basic.nack with multiple=true (its own, or a later delivery's on the channel);
   * `discarded`: the application gave up on it and acked (the `discard` action): the broker forgets a message that was not processed
   */
  | (EventBase & {
      readonly kind: 'acked';
      readonly queue: string;
      readonly consumer: string;
      readonly multiple?: true;
      readonly discarded?: true;
    })
  | (EventBase & {
      readonly kind: 'rejected';
      readonly queue: string;
      readonly consumer: string;
      readonly multiple?: true;
    })
  /** `delayMs`/`until`: a 4.3 quorum queue holds it (delayed retry) before it is ready again */
  | (EventBase & {
      readonly kind: 'requeued';
      readonly queue: string;
      readonly consumer: string;
      /** 'reject': basic.reject requeue=true (4.3 counts it toward a quorum delivery limit); absent: basic.nack */
      readonly via?: 'reject';
      /** a basic.nack with multiple=true settled it */
      readonly multiple?: true;
      readonly delayMs?: number;
      readonly until?: number;
    })
  | (EventBase & { readonly kind: 'expired'; readonly queue: string })
  | (EventBase & {
      readonly kind: 'dead-lettered';
      readonly queue: string;
      readonly reason: DeathReason;
      /** the dead-letter exchange it is republished to */
      readonly exchange: string;
      readonly routingKeys: readonly string[];
      /** the message's x-death after this death (the simulator sets it: what a parked copy carries) */
      readonly xDeath?: readonly XDeathEntry[];
    })
  | (EventBase & {
      readonly kind: 'dropped';
      readonly why: DropReason;
      readonly queue?: string;
      readonly exchange?: string;
    })
  /** sampled queue depth (live trace; the simulator emits it on change when asked) */
  | (EventBase & { readonly kind: 'depth'; readonly queue: string; readonly ready: number; readonly unacked: number });

export type SimEventKind = SimEvent['kind'];
export type SimEventOf<K extends SimEventKind> = Extract<SimEvent, { kind: K }>;
