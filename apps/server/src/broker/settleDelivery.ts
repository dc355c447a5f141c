/**
 * A consumer action that settles a delivery, as the AMQP call it is, written once: the trace's
 * workers (trace/worker.ts) and the conformance consumers (conformance/runBrokerScenario.ts)
 * settle through this.
 * - ack: basic.ack (multiple: this delivery and every earlier unsettled one on the channel);
 * - reject: basic.reject requeue=false; with multiple, basic.nack multiple requeue=false;
 * - requeue: basic.nack requeue=true, or basic.reject requeue=true with via 'reject' (from
 *   RabbitMQ 4.3 only a reject counts towards a quorum queue's delivery limit); with multiple,
 *   basic.nack multiple requeue=true (basic.reject has no multiple).
 * - republish (republishThenAck): the copy published and its confirm awaited, then the original
 *   acked: a copy is never lost for an ack that came first (at-least-once; a lost confirm
 *   leaves the original to be delivered again).
 * `hold` settles nothing: the delivery waits for a later multiple (or its channel's close).
 */
import type { Channel, ConfirmChannel, Message, Options } from 'amqplib';
import type { ConsumerAction } from '@retry-studio/topology-core/model';
import { publishConfirmed } from './confirmPublish.js';

export type Settlement = Extract<ConsumerAction, { kind: 'ack' | 'reject' | 'requeue' }>;

export function isSettlement(a: ConsumerAction): a is Settlement {
  return a.kind === 'ack' || a.kind === 'reject' || a.kind === 'requeue';
}

export function settleDelivery(ch: Pick<Channel, 'ack' | 'nack' | 'reject'>, msg: Message, action: Settlement): void {
  const multiple = action.multiple === true;
  if (action.kind === 'ack') return ch.ack(msg, multiple);
  const requeue = action.kind === 'requeue';
  if (multiple) return ch.nack(msg, true, requeue);
  if (action.kind === 'requeue' && action.via !== 'reject') return ch.nack(msg, false, true);
  return ch.reject(msg, requeue);
}

/** A republish's copy as it goes on the wire (the caller works out its address and properties). */
export interface RepublishedCopy {
  readonly exchange: string;
  readonly routingKey: string;
  readonly properties: Options.Publish;
}

/**
 * Publishes `copy` (the delivery's body) on `pub`, awaits its confirm, then acks the original on
 * `ch`, unless `stillOpen` says a later delivery's multiple settled it meanwhile (acking it again
 * would close the channel). The confirm's outcome is the caller's to report, and whether it acked.
 */
export async function republishThenAck(
  pub: ConfirmChannel,
  ch: Pick<Channel, 'ack'>,
  msg: Message,
  copy: RepublishedCopy,
  stillOpen: () => boolean = () => true,
): Promise<{ outcome: 'acked' | 'nacked'; acked: boolean }> {
  const outcome = await publishConfirmed(pub, copy.exchange, copy.routingKey, msg.content, copy.properties);
  if (!stillOpen()) return { outcome, acked: false };
  ch.ack(msg);
  return { outcome, acked: true };
}
