/**
 * INTERIM (the lead folds this into the one core function "the consumers a definitions file is
 * assumed to have", being written on the users-lint branch): the consumers and publishers a
 * consumer-less definitions file is simulated with, as operate/scaffoldImport.ts assumes them:
 * - a queue with a dead-letter exchange and no TTL is a work queue: a worker that rejects
 *   (requeue=false), so failures take the dead-letter route;
 * - a quorum queue with 4.3 delayed retry is retried in place: a worker that requeues with
 *   basic.reject (what delayed retry and the delivery limit read);
 * - a wait queue (TTL + DLX), a parking queue or a stream: nobody consumes it;
 * - an exchange that is not a work queue's dead-letter exchange and routes somewhere gets a publisher.
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { Topology } from '../model/definitions.js';
import { effectiveQueueArgs } from '../lint/flow.js';

export interface AssumedTraffic {
  readonly consumers: readonly ConsumerSpec[];
  readonly publishers: readonly PublisherSpec[];
}

const sampleKey = (pattern: string): string =>
  pattern
    .split('.')
    .filter((w) => w !== '#')
    .map((w) => (w === '*' ? 'x' : w))
    .join('.');

export function assumedTraffic(topology: Topology): AssumedTraffic {
  const consumers: ConsumerSpec[] = [];
  const errorPaths = new Set<string>();
  for (const q of topology.queues) {
    const a = effectiveQueueArgs(topology, q.name);
    const dlx = a['x-dead-letter-exchange'];
    const delayedRetry = a['x-queue-type'] === 'quorum' && typeof a['x-delayed-retry-type'] === 'string' && a['x-delayed-retry-type'] !== 'disabled';
    if (a['x-queue-type'] === 'stream' || a['x-message-ttl'] !== undefined) continue;
    if (delayedRetry) consumers.push({ id: `worker-${q.name}`, queue: q.name, label: `worker ${q.name}`, behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'requeue', via: 'reject' } }] } });
    else if (typeof dlx === 'string') consumers.push({ id: `worker-${q.name}`, queue: q.name, label: `worker ${q.name}`, behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] } });
    else continue;
    if (typeof dlx === 'string') errorPaths.add(dlx);
  }
  const publishers: PublisherSpec[] = [];
  for (const x of topology.exchanges) {
    if (errorPaths.has(x.name) || x.internal || x.type === 'x-delayed-message') continue;
    const b = topology.bindings.find((y) => y.source === x.name);
    if (!b) continue;
    publishers.push({ id: `publish-${x.name}`, label: `to ${x.name}`, exchange: x.name, routingKey: x.type === 'topic' ? sampleKey(b.routing_key) : b.routing_key, bodyPrefix: x.name });
  }
  return { consumers, publishers };
}
