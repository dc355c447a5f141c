/**
 * Broker-version profiles: what differs between the recorded 3.10.8 behaviour and 4.x.
 * Sources are in ../../../../../shared/reference/rabbitmq-semantics.md §0.
 */
import type { BrokerProfileId } from '../model/design.js';
import type { ProfileOptions } from './types.js';

export interface SemanticsProfile {
  readonly id: BrokerProfileId;
  /** write x-last-death-{reason,queue,exchange} on every death (3.13+; mc.erl L426-447) */
  readonly lastDeathHeaders: boolean;
  /** delete the CC header when a dead-letter routing key is set (3.10 only; rabbit_dead_letter.erl L41-44) */
  readonly dropCcWithDlrk: boolean;
  /** quorum delivery limit when none is set (4.0+: 20; rabbit_quorum_queue.erl L111) */
  readonly quorumDefaultDeliveryLimit: number | undefined;
  /** a client-published x-death is ignored on the next death: fresh entry, x-first-death-* overwritten (RN 4.0.1) */
  readonly ignoreClientXDeath: boolean;
  /** headers exchange compares with =:= (3.13+; rabbit_exchange_type_headers.erl@v4.2.9 L36-88) */
  readonly strictHeaderMatch: boolean;
  /** quorum basic.get adds x-delivery-count even when 0 (3.10; rabbit_fifo_client.erl L250-258) */
  readonly getAddsZeroDeliveryCount: boolean;
  /** 3.10 reverses the existing x-death entries on every death when there are two or more */
  readonly xDeathRegroupReverses: boolean;
  /** quorum consume adds x-delivery-count only on redelivery (3.10); 4.x: = acquired_count when > 0 */
  /**
   * 4.3: a quorum queue's delivery-count (x-delivery-count, what the delivery limit reads)
   * increments only for failed deliveries: basic.reject, not basic.nack; every return increments
   * acquired-count (x-acquired-count). docs quorum-queues "When is delivery count incremented?"
   */
  readonly onlyRejectsCountTowardLimit: boolean;
  /** 4.3: quorum queues hold returned messages for x-delayed-retry-* (docs quorum-queues#delayed-retry) */
  readonly quorumDelayedRetry: boolean;
  /**
   * 4.3: a dead letter carries its failed-delivery count (each basic.reject, with or without
   * requeue, in the queues it went through; not basic.nack). A quorum queue starts its
   * delivery-count there (x-delivery-count and, until it returns the message itself,
   * x-acquired-count; redelivered); a classic queue says redelivered when it could not hand
   * the message straight to a consumer. Recorded on 4.3.6: dlx-error-queue-requeue-consumer
   * (../shared/reference/rabbitmq-4.3.md) and our dead-letter-* scenarios in scenarios-4.3.
   */
  readonly deadLetterCarriesDeliveryCount: boolean;
  /**
   * 3.10 with the delayed-message exchange 3.10.2: a message dead-lettered into an
   * x-delayed-message exchange and held there arrives with `x-delay` negated (-150 for 150);
   * a published one keeps its header (issue 9 point 7b)
   */
  readonly deadLetterDelayNegated: boolean;
  /**
   * A stream stores at-most-once dead letters routed to it. 3.10: no: they are silently dropped
   * (osiris had no uncorrelated writes, so a "stateless" delivery to a stream was dropped; fixed
   * by rabbitmq-server#7846, backported to 3.11.x/3.12.x). Measured: 3.10.8 drops them, 4.3.6 keeps them
   * (scenarios stream-dead-letter-*).
   */
  readonly streamTakesDeadLetters: boolean;
  /**
   * A dead letter stored in a stream is delivered with the `expiration` it had when it died
   * (queues drop it; measured on 4.3.6, stream-dead-letter-expired; 4.0-4.2 assumed alike: the
   * same message container)
   */
  readonly streamKeepsDeadLetterExpiration: boolean;
  /**
   * A stream keeps array and table headers of a client publish. 3.10: no, they are dropped
   * (measured on 3.10.8, stream-republish-parks-copy: `x-tags: ["a","b"]` is gone); 4.3.6 keeps them.
   * On both, a client-set `x-death` is not kept (sim/stream.ts).
   */
  readonly streamKeepsArrayHeaders: boolean;
  /** the broker line's major version (3.x or 4.x): what "after an upgrade to 4.x" warnings ask */
  readonly major: 3 | 4;
  /**
   * the retry-aware DLX plugin (rabbitmq_retry_aware_dlx, exchange type radlx) exists for this line:
   * 3.13.2 to 4.1.x only (the plugin's release notes), so not 3.10 and not 4.3
   */
  readonly radlxPlugin: boolean;
  /**
   * a policy may apply to one queue type (apply-to classic_queues, quorum_queues, streams: 3.12+);
   * 3.10.8 refuses the policy with 400 (measured, corpus rabbitmqadmin-ng-vhost-export-4.0.json)
   */
  readonly perTypePolicyApplyTo: boolean;
  /** the consumer timeout is evaluated on classic queues (4.3 no longer does: docs consumers#acknowledgement-timeout) */
  readonly classicConsumerTimeout: boolean;
}

export const PROFILE_3_10: SemanticsProfile = {
  id: '3.10',
  xDeathRegroupReverses: true,
  lastDeathHeaders: false,
  dropCcWithDlrk: true,
  quorumDefaultDeliveryLimit: undefined,
  ignoreClientXDeath: false,
  strictHeaderMatch: false,
  getAddsZeroDeliveryCount: true,
  onlyRejectsCountTowardLimit: false,
  quorumDelayedRetry: false,
  deadLetterCarriesDeliveryCount: false,
  deadLetterDelayNegated: true,
  streamTakesDeadLetters: false,
  streamKeepsDeadLetterExpiration: false,
  streamKeepsArrayHeaders: false,
  major: 3,
  radlxPlugin: false,
  perTypePolicyApplyTo: false,
  classicConsumerTimeout: true,
};

export const PROFILE_4_X: SemanticsProfile = {
  id: '4.x',
  xDeathRegroupReverses: false,
  lastDeathHeaders: true,
  dropCcWithDlrk: false,
  quorumDefaultDeliveryLimit: 20,
  ignoreClientXDeath: true,
  strictHeaderMatch: true,
  getAddsZeroDeliveryCount: false,
  onlyRejectsCountTowardLimit: false,
  quorumDelayedRetry: false,
  deadLetterCarriesDeliveryCount: false,
  // not seen on 4.x (no 4.x recording with the plugin): modelled only where it was recorded
  deadLetterDelayNegated: false,
  streamTakesDeadLetters: true,
  streamKeepsDeadLetterExpiration: true,
  streamKeepsArrayHeaders: true,
  major: 4,
  radlxPlugin: true,
  perTypePolicyApplyTo: true,
  classicConsumerTimeout: true,
};

/** 4.x with the 4.3 rules (ProfileOptions.v43); one object, so caches keyed by profile keep hitting */
export const PROFILE_4_3: SemanticsProfile = {
  ...PROFILE_4_X,
  onlyRejectsCountTowardLimit: true,
  quorumDelayedRetry: true,
  deadLetterCarriesDeliveryCount: true,
  radlxPlugin: false,
  classicConsumerTimeout: false,
};

export function profileFor(id: BrokerProfileId | undefined, opts?: ProfileOptions): SemanticsProfile {
  if (id === '4.3') return PROFILE_4_3;
  if (id === '4.x') return opts?.v43 ? PROFILE_4_3 : PROFILE_4_X;
  return PROFILE_3_10;
}
