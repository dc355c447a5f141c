/**
 * What reading a queue changes, by queue type and broker version: said in the UI and the CLI
 * before anyone looks, and the reader refuses a quorum queue before 4.3 unless told to insist.
 * - classic: read = deliver + requeue: each message comes back marked redelivered, and
 *   requeued messages can be reordered against messages published meanwhile;
 * - quorum before 4.3: every return counts toward x-delivery-limit (4.0+ default 20), so
 *   looking can dead-letter or drop a message (docs quorum-queues#poison-message-handling);
 * - quorum from 4.3: returned with basic.nack, which counts in x-acquired-count, not toward the
 *   delivery limit (docs quorum-queues "When is delivery count incremented?");
 * - stream: read by offset; consumers do not remove or mark anything.
 */
import type { BrokerVersionProfile } from './brokerVersion.js';

export type QueueKind = 'classic' | 'quorum' | 'stream';

export type BrowseEffect =
  | {
      readonly kind: 'requeue';
      readonly queueType: 'classic' | 'quorum';
      readonly refuseUnlessInsist: false;
      readonly message: string;
    }
  | {
      readonly kind: 'counts-toward-limit';
      readonly queueType: 'quorum';
      readonly refuseUnlessInsist: true;
      readonly message: string;
    }
  | {
      readonly kind: 'none';
      readonly queueType: 'stream';
      readonly refuseUnlessInsist: false;
      readonly message: string;
    };

export function browseEffect(queueType: QueueKind, broker: BrokerVersionProfile): BrowseEffect {
  if (queueType === 'stream')
    return {
      kind: 'none',
      queueType,
      refuseUnlessInsist: false,
      message: 'a stream is read by offset: looking changes nothing (no message is removed, requeued or marked)',
    };
  if (queueType === 'quorum' && !broker.v43)
    return {
      kind: 'counts-toward-limit',
      queueType,
      refuseUnlessInsist: true,
      message:
        `on RabbitMQ ${broker.major}.${broker.minor} every look at a quorum queue counts as a delivery: it increments x-delivery-count, ` +
        `and a message that reaches the delivery limit${broker.major >= 4 ? ' (20 unless set)' : ''} is dead-lettered or dropped. ` +
        'Refused unless you insist (--insist); RabbitMQ 4.3 does not count a look.',
    };
  if (queueType === 'quorum')
    return {
      kind: 'requeue',
      queueType,
      refuseUnlessInsist: false,
      message:
        'on RabbitMQ 4.3+ messages are returned with basic.nack: marked redelivered and counted in x-acquired-count, but not toward the delivery limit',
    };
  return {
    kind: 'requeue',
    queueType,
    refuseUnlessInsist: false,
    message:
      'reading a classic queue delivers and requeues each message: it comes back marked redelivered, and can be reordered against messages published meanwhile',
  };
}

export function queueKindOf(type: string | undefined, args?: { readonly [k: string]: unknown }): QueueKind {
  const t = type ?? args?.['x-queue-type'];
  return t === 'quorum' ? 'quorum' : t === 'stream' ? 'stream' : 'classic';
}
