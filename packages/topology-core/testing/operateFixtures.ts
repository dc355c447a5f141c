/** Fixture builders for the operate tests (a small live vhost, dead letters). */
import type { AmqpTable } from '../src/model/definitions.js';
import type { XDeathEntry } from '../src/model/xDeath.js';
import type { BrokerSnapshot } from '../src/operate/brokerSnapshot.js';
import type { DeadLetterMessage } from '../src/operate/deadLetter.js';

/** orders: work queue -> (reject) dlx -> orders.dlq (parking); orders.wait: TTL wait queue. */
export function ordersSnapshot(version = '3.10.8', extra: Partial<BrokerSnapshot> = {}): BrokerSnapshot {
  return {
    rabbitVersion: version,
    vhost: '/',
    exchanges: [
      { name: '', type: 'direct' },
      { name: 'amq.topic', type: 'topic' },
      { name: 'orders', type: 'topic' },
      { name: 'orders.dlx', type: 'fanout' },
      { name: 'orders.retry', type: 'direct' },
    ],
    queues: [
      { name: 'orders.work', type: 'classic', consumers: 0, arguments: { 'x-dead-letter-exchange': 'orders.dlx' } },
      { name: 'orders.dlq', type: 'classic', consumers: 0, arguments: {} },
      {
        name: 'orders.wait',
        type: 'classic',
        consumers: 0,
        arguments: { 'x-message-ttl': 5000, 'x-dead-letter-exchange': 'orders' },
      },
    ],
    bindings: [
      { source: '', destination: 'orders.work', destination_type: 'queue', routing_key: 'orders.work' },
      { source: 'orders', destination: 'orders.work', destination_type: 'queue', routing_key: 'order.*' },
      { source: 'orders.dlx', destination: 'orders.dlq', destination_type: 'queue', routing_key: '' },
      { source: 'orders.retry', destination: 'orders.wait', destination_type: 'queue', routing_key: 'wait' },
    ],
    ...extra,
  };
}

export function xDeath(
  queue: string,
  reason: XDeathEntry['reason'],
  exchange: string,
  keys: string[],
  count = 1,
  time = 1_700_000_000,
): XDeathEntry {
  return { queue, reason, count, exchange, 'routing-keys': keys, time };
}

export function deadLetter(
  seq: number,
  o: { xDeath?: XDeathEntry[]; headers?: AmqpTable; body?: string; routingKey?: string } = {},
): DeadLetterMessage {
  const xd = o.xDeath ?? [xDeath('orders.work', 'rejected', 'orders', ['order.created'])];
  const first = xd.at(-1);
  return {
    seq,
    exchange: 'orders.dlx',
    routingKey: o.routingKey ?? 'order.created',
    redelivered: false,
    body: o.body ?? `m${seq}`,
    bodyBytes: (o.body ?? `m${seq}`).length,
    headers: {
      ...(first
        ? {
            'x-first-death-queue': first.queue,
            'x-first-death-reason': first.reason,
            'x-first-death-exchange': first.exchange,
          }
        : {}),
      ...o.headers,
    },
    xDeath: xd,
  };
}
