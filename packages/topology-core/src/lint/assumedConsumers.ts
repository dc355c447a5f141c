/**
 * What a topology implies about its consumers when none are declared (a definitions file, a
 * live vhost): the one assumption the linter, the vhost importer and an upgrade check share.
 * - a queue with a dead-letter route and no TTL is a work queue: its consumer rejects a
 *   message it fails on (so failures dead-letter, as on the broker);
 * - a queue with a TTL and a dead-letter route (and no live consumer) is a wait queue: nobody
 *   consumes it, its messages dead-letter when they expire;
 * - a queue that only dead letters reach, with no dead-letter route of its own (and no live
 *   consumer), is a parking lot: nobody consumes it, dead letters pile up there;
 * - a stream is a parking place whoever reads it (readers move nothing);
 * - a quorum queue with 4.3's delayed retry is retried in place: its consumer requeues with
 *   basic.reject (what delayed retry and the delivery limit count);
 * - any other queue is idle (or a work queue that acks, when the broker shows consumers on it).
 * And the publishers (assumedPublishers): one per way into each entry exchange, so that every
 * binding has a message that matches it.
 */
import type { AmqpValue, Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { Design } from '../model/design.js';
import { builtinExchangeType } from '../model/definitions.js';
import { effectiveArguments, queueEffectiveSettings } from '../model/effectiveSettings.js';
import { sampleTopicKey } from '../routing/topicMatcher.js';

/** What a queue is for, read from its effective arguments and who feeds it. */
export type QueueRole = 'work' | 'wait' | 'parking' | 'idle';

export interface AssumedConsumers {
  /** queue name -> role */
  readonly roles: Readonly<Record<string, QueueRole>>;
  /** one worker per work queue: it rejects on failure where the queue dead-letters, else acks */
  readonly consumers: readonly ConsumerSpec[];
  /** every queue's effective arguments (arguments and policies combined) */
  readonly args: ReadonlyMap<string, Record<string, AmqpValue>>;
}

export interface AssumeOptions {
  /** live consumer counts per queue (a vhost import), when the broker gave them */
  readonly liveConsumers?: ReadonlyMap<string, number | undefined>;
}

/** The consumer id the assumption gives a work queue. */
export const assumedWorkerId = (queue: string): string => `worker-${queue}`;

export function assumedConsumers(topology: Topology, opts: AssumeOptions = {}): AssumedConsumers {
  const live = (q: string): boolean => (opts.liveConsumers?.get(q) ?? 0) > 0;
  const dlxOf = new Map<string, string>();
  const args = new Map<string, Record<string, AmqpValue>>();
  for (const q of topology.queues) {
    const a = effectiveArguments(queueEffectiveSettings(q, topology));
    args.set(q.name, a);
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx === 'string') dlxOf.set(q.name, dlx);
  }
  // which queues dead letters reach: the queues each dead-letter exchange routes to
  const dlxs = new Set(dlxOf.values());
  const fedByDlx = new Set<string>();
  for (const b of topology.bindings) if (dlxs.has(b.source) && b.destination_type === 'queue') fedByDlx.add(b.destination);
  for (const [q, dlx] of dlxOf) {
    // the default exchange as DLX routes by the dead-letter routing key, i.e. to that queue
    const dlrk = args.get(q)?.['x-dead-letter-routing-key'];
    if (dlx === '' && typeof dlrk === 'string') fedByDlx.add(dlrk);
  }
  const fedByBinding = new Set<string>();
  for (const b of topology.bindings) if (!dlxs.has(b.source) && b.destination_type === 'queue') fedByBinding.add(b.destination);

  const roles: Record<string, QueueRole> = {};
  const consumers: ConsumerSpec[] = [];
  for (const q of topology.queues) {
    const a = args.get(q.name) ?? {};
    const hasDlx = typeof a['x-dead-letter-exchange'] === 'string';
    const hasTtl = a['x-message-ttl'] !== undefined;
    const delayedRetry = a['x-queue-type'] === 'quorum' && typeof a['x-delayed-retry-type'] === 'string' && a['x-delayed-retry-type'] !== 'disabled';
    let role: QueueRole;
    if (a['x-queue-type'] === 'stream') role = 'parking';
    else if (hasDlx && hasTtl && !live(q.name)) role = 'wait';
    else if (hasDlx || delayedRetry) role = 'work';
    else if (fedByDlx.has(q.name) && !fedByBinding.has(q.name) && !live(q.name)) role = 'parking';
    else role = live(q.name) ? 'work' : 'idle';
    roles[q.name] = role;
    if (role === 'work')
      consumers.push({
        id: assumedWorkerId(q.name),
        queue: q.name,
        label: `worker ${q.name}`,
        behaviour: { kind: 'worker', onFailure: [{ then: delayedRetry ? { kind: 'requeue', via: 'reject' } : hasDlx ? { kind: 'reject' } : { kind: 'ack' } }] },
      });
  }
  return { roles, consumers, args };
}


/**
 * The publishers a consumer-less topology implies: one per way into each entry exchange (every
 * exchange but internal ones and a work queue's dead-letter exchange, the built-in `amq.*`
 * exchanges its bindings use included), so that every binding has a message that matches it.
 */
export function assumedPublishers(topology: Topology, assumed: AssumedConsumers): PublisherSpec[] {
  // a wait queue's DLX is the way back to work (an entry point); a work queue's DLX is the error path
  const errorPaths = new Set<string>();
  for (const [q, a] of assumed.args) if (assumed.roles[q] === 'work' && typeof a['x-dead-letter-exchange'] === 'string') errorPaths.add(a['x-dead-letter-exchange']);
  const builtinSources = [...new Set(topology.bindings.map((b) => b.source))].flatMap((name) => {
    const type = builtinExchangeType(name);
    return type ? [{ name, type, internal: false }] : [];
  });
  const publishers: PublisherSpec[] = [];
  for (const x of [...topology.exchanges, ...builtinSources]) {
    if (errorPaths.has(x.name) || x.internal) continue;
    const seen = new Set<string>();
    for (const b of topology.bindings) {
      if (b.source !== x.name) continue;
      const headers = x.type === 'headers' ? Object.fromEntries(Object.entries(b.arguments ?? {}).filter(([k]) => !k.startsWith('x-'))) : undefined;
      const routingKey = x.type === 'fanout' || x.type === 'headers' ? '' : x.type === 'topic' ? sampleTopicKey(b.routing_key) : b.routing_key;
      const key = JSON.stringify([routingKey, headers ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      const n = seen.size;
      publishers.push({
        id: n === 1 ? `publish-${x.name}` : `publish-${x.name}-${n}`,
        label: `to ${x.name}${n === 1 ? '' : ` (${routingKey || 'headers'})`}`,
        exchange: x.name,
        routingKey,
        bodyPrefix: n === 1 ? x.name : `${x.name}-${n}`,
        ...(headers && Object.keys(headers).length > 0 ? { properties: { headers } } : {}),
      });
    }
  }
  return publishers;
}

/**
 * A design with no consumers and no publishers (a definitions file, a file opened in the designer)
 * given the ones the topology implies; `assumed` says what was added (undefined: nothing was,
 * the design had actors of its own, or no exchange routes anywhere).
 */
export function withAssumedActors(design: Design): { readonly design: Design; readonly assumed?: { readonly consumers: readonly ConsumerSpec[]; readonly publishers: readonly PublisherSpec[] } } {
  if (design.publishers.length > 0 || design.consumers.length > 0) return { design };
  const assumed = assumedConsumers(design.topology);
  const publishers = assumedPublishers(design.topology, assumed);
  if (publishers.length === 0) return { design };
  return { design: { ...design, consumers: [...assumed.consumers], publishers }, assumed: { consumers: assumed.consumers, publishers } };
}
