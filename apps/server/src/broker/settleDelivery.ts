/**
 * A consumer action that settles a delivery, as the AMQP call it is, written once: the trace's
 * workers (trace/worker.ts) and the conformance consumers (conformance/runBrokerScenario.ts)
 * settle through this.
 * - ack: basic.ack (multiple: this delivery and every earlier unsettled one on the channel);
 * - reject: basic.reject requeue=false; with multiple, basic.nack multiple requeue=false;
 * - requeue: basic.nack requeue=true, or basic.reject requeue=true with via 'reject' (from
 *   RabbitMQ 4.3 only a reject counts towards a quorum queue's delivery limit); with multiple,
 *   basic.nack multiple requeue=true (basic.reject has no multiple).
 * `hold` settles nothing and a republish settles with an ack once its copy is confirmed: the
 * callers do those.
 */
import type { Channel, Message } from 'amqplib';
import type { ConsumerAction } from '@retry-studio/topology-core';

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
